import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { HDNodeWallet, Mnemonic } from 'ethers';
import type { NodeProxy } from '../../src';
import { callProxy } from '../client';
import { waitUntil, type CreatedNode, type ProxyPlatform, type TestUser } from '../harness';
import { sharedProxyPlatform } from '../shared-platform';

// anvil derives its dev accounts from this phrase unless told otherwise, and prints their keys.
const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';
const anvilKeys = Array.from(
  { length: 10 },
  (_, index) => HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(ANVIL_MNEMONIC), `m/44'/60'/0'/0/${index}`).privateKey,
);

describe("a node's /logs on the management port", () => {
  let platform: ProxyPlatform;
  let proxy: NodeProxy;
  let user: TestUser;

  beforeAll(async () => {
    platform = sharedProxyPlatform();
    proxy = await platform.startProxy();
    user = await platform.user();
  }, 180_000);
  afterAll(() => platform?.close());

  const logs = async (node: CreatedNode) => {
    const answer = await callProxy(proxy, 'management', { host: node.address, auth: `${node.nodeUser}:${node.nodePass}`, path: '/logs' });
    expect(answer.status).toBe(200);
    return answer.body as string[];
  };

  it("holds none of anvil's dev keys, nor its mnemonic, nor the node's loopback port, and says what it redacted", async () => {
    const node = await platform.createNode(user, { image: 'eth' });
    await waitUntil('anvil to log a block', async () => (await logs(node)).some((line) => /Block Number: \d+/.test(line)), 10_000, 100);
    const lines = await logs(node);
    const { rpcPort } = JSON.parse(await readFile(path.join(platform.dataDir, 'nodes', node.id, 'node.json'), 'utf8')) as { rpcPort: number };
    const text = lines.join('\n');

    expect(anvilKeys.filter((key) => text.includes(key) || text.includes(key.slice(2)))).toEqual([]);
    expect(text.includes(ANVIL_MNEMONIC)).toBe(false);
    expect(new RegExp(`\\b${rpcPort}\\b`).test(text)).toBe(false);
    expect(lines.filter((line) => /^\(\d\) \[redacted: private key\]$/.test(line))).toHaveLength(10);
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^Mnemonic:\s+\[redacted: mnemonic\]$/), 'Listening on [redacted: internal address]']));
    // What the user needs stays: the blocks anvil mines, with their hashes (which look like keys).
    expect(lines.some((line) => /Block Hash: 0x[0-9a-f]{64}$/.test(line))).toBe(true);
  }, 180_000);
});
