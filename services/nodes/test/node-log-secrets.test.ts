import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import 'reflect-metadata';
import { message } from '@cloud/bus';
import type { ImageId } from '@cloud/chains';
import { createLocalDriver } from '../src/drivers/local';
import { findOnPath } from '../src/drivers/local/software';
import { bearer, sha256, startTestPlatform, waitUntil, type TestNodes, type TestPlatform, type TestUser } from '../src/testing';
import { testDriverOptions, waitFor } from './rpc-client';
import { stakingPair } from './staking-pair';

// Real software through the local driver: anvil, litecoind, the dev chain (btc, bch) and its
// avalanche mode. Whatever the software prints, no reader of the node's log (the file, the
// driver, the nodes API, the `nodes.logs` answer the proxy's /logs serves) gets a key that
// spends the node's accounts, its mnemonic, or the loopback port its unauthenticated RPC is on.
const litecoind = process.env.LITECOIND_PATH || findOnPath('litecoind');
const devChainBuilt = existsSync(path.join(__dirname, '..', '..', '..', 'packages', 'dev-chain', 'dist', 'main.js'));
if (process.env.CI && !(litecoind && devChainBuilt)) throw new Error('litecoind and a built dev chain are needed');

/** anvil's secrets as it prints them, read from a run of the very binary the driver runs. */
async function anvilSecrets(): Promise<{ keys: string[]; mnemonic: string }> {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const anvil = path.join(path.dirname(require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`)), 'bin', 'anvil');
  const child = spawn(anvil, ['--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  await waitUntil('anvil to print its accounts', () => output.includes('Listening on'), 10_000, 20);
  child.kill('SIGKILL');
  const keys = [...output.matchAll(/^\(\d+\) (0x[0-9a-f]{64})$/gm)].map((match) => match[1]!);
  const mnemonic = /^Mnemonic:\s+(.+)$/m.exec(output)?.[1] ?? '';
  return { keys, mnemonic };
}

interface Case {
  image: ImageId;
  runs: boolean;
  /** A line the software prints once its RPC listens: only then is there a port to leak. */
  printed: RegExp;
  /** What the redacted log shows instead. */
  redacted: RegExp;
}

const CASES: Case[] = [
  { image: 'eth', runs: true, printed: /Listening on/, redacted: /^Listening on \[redacted: internal address\]$/ },
  { image: 'ltc', runs: Boolean(litecoind), printed: /init message: Done loading/, redacted: /Command-line arg: rpcport="\[redacted: port\]"$/ },
  { image: 'btc', runs: devChainBuilt, printed: /Binding RPC on/, redacted: /Binding RPC on address 127\.0\.0\.1 port \[redacted: port\]/ },
  { image: 'bch', runs: devChainBuilt, printed: /Binding RPC on/, redacted: /Binding RPC on address 127\.0\.0\.1 port \[redacted: port\]/ },
  {
    image: 'avalanchefuji',
    runs: devChainBuilt,
    printed: /HTTP API server listening/,
    redacted: /HTTP API server listening on address 127\.0\.0\.1 port \[redacted: port\]$/,
  },
];

describe('node logs hold no secrets', () => {
  let platform: TestPlatform;
  let nodes: TestNodes;
  let user: TestUser;
  let anvil: { keys: string[]; mnemonic: string };

  beforeAll(async () => {
    anvil = await anvilSecrets();
    platform = await startTestPlatform();
    const pair = await stakingPair();
    // Stands in for the staking service, which hands a validator node its staking pair.
    await platform.bus.serve('staking.validator-tls', () => Promise.resolve(pair));
    nodes = await platform.startNodes({ MAX_NODES_PER_USER: '10', ...(litecoind ? { LITECOIND_PATH: litecoind } : {}) });
    user = await platform.user();
  }, 180_000);
  afterAll(() => platform?.close());

  test('anvil printed its dev keys and mnemonic, so there is something to hide', () => {
    expect(anvil.keys).toHaveLength(10);
    expect(anvil.mnemonic.split(' ')).toHaveLength(12);
  });

  /** A node of `image` for the user, as the API (or, for a validator, the staking service) creates it. */
  async function createNode(image: ImageId): Promise<string> {
    if (image !== 'avalanchefuji') {
      const created = await nodes.http.post('/users/me/nodes').set(bearer(user.clientToken)).send({ image }).expect(200);
      return (created.body as { id: string }).id;
    }
    const nodeId = `node-${randomUUID()}`;
    await platform.bus.publish([
      message('validator.created', { nodeId, userId: user.id, image, basic: { user: `u${nodeId.slice(5, 13)}`, passwordSha256: sha256('x') } }),
    ]);
    return nodeId;
  }

  const runs = (each: Case) => (each.runs ? test : test.skip);

  for (const each of CASES) {
    runs(each)(
      `${each.image}: the file, the driver, the API and nodes.logs hold no key, mnemonic or RPC port, and only this user reads the file`,
      async () => {
        const nodeId = await createNode(each.image);
        const nodeDir = path.join(platform.dataDir, 'nodes', nodeId);
        const logFile = path.join(nodeDir, 'node.log');
        await waitUntil(
          `the ${each.image} node runs`,
          async () => ((await nodes.http.get(`/users/me/nodes/${nodeId}`).set(bearer(user.clientToken))).body as { state?: string }).state === 'running',
          30_000,
          100,
        );
        await waitUntil('the software has printed that it listens', async () => each.printed.test(await readFile(logFile, 'utf8')), 10_000, 100);

        // The port, as the README tells the operator to find it: in node.json, which only they read.
        const record = JSON.parse(await readFile(path.join(nodeDir, 'node.json'), 'utf8')) as { rpcPort: number };
        const port = String(record.rpcPort);
        expect(await nodes.service.driver.status(nodeId)).toMatchObject({ state: 'running', endpoint: { url: `http://127.0.0.1:${port}` } });
        const secrets = [...anvil.keys, ...anvil.keys.map((key) => key.slice(2)), anvil.mnemonic, `127.0.0.1:${port}`, `localhost:${port}`];
        const expectNoSecret = (where: string, text: string) => {
          for (const secret of secrets) expect({ where, found: text.includes(secret) ? secret : undefined }).toEqual({ where, found: undefined });
          expect({ where, port: new RegExp(`\\b${port}\\b`).test(text) }).toEqual({ where, port: false });
        };

        const file = await readFile(logFile, 'utf8');
        expectNoSecret('node.log', file);
        const fromDriver = await nodes.service.driver.logs(nodeId, 100_000);
        expectNoSecret('the driver', fromDriver.join('\n'));
        const fromApi = await nodes.http.get(`/users/me/nodes/${nodeId}/logs`).query({ lines: 10_000 }).set(bearer(user.clientToken)).expect(200);
        expectNoSecret('the nodes API', JSON.stringify(fromApi.body));
        const fromBus = await platform.bus.request('nodes.logs', { nodeId });
        expectNoSecret('nodes.logs', JSON.stringify(fromBus.lines));
        // Redacted where it was, not dropped: the reader sees that something was there.
        expect(fromBus.lines.some((line) => each.redacted.test(line))).toBe(true);
        if (each.image === 'eth') {
          expect(fromBus.lines.filter((line) => line === '(0) [redacted: private key]')).toHaveLength(1);
          expect(fromBus.lines.filter((line) => /^\(\d\) \[redacted: private key\]$/.test(line))).toHaveLength(10);
          expect(fromBus.lines.some((line) => /^Mnemonic:\s+\[redacted: mnemonic\]$/.test(line))).toBe(true);
        }

        const modeOf = async (target: string) => (await stat(target)).mode & 0o777;
        expect({ log: await modeOf(logFile), record: await modeOf(path.join(nodeDir, 'node.json')) }).toEqual({ log: 0o600, record: 0o600 });
        expect({ nodes: await modeOf(path.dirname(nodeDir)), node: await modeOf(nodeDir), data: await modeOf(path.join(nodeDir, 'data')) }).toEqual({
          nodes: 0o700,
          node: 0o700,
          data: 0o700,
        });
      },
      180_000,
    );
  }

  test('a log written before redaction (or by the software itself) is redacted as it is read', async () => {
    const nodeId = await createNode('eth');
    const logFile = path.join(platform.dataDir, 'nodes', nodeId, 'node.log');
    await waitUntil('the node logs', async () => existsSync(logFile), 30_000, 100);
    await appendFile(logFile, `(0) ${anvil.keys[0]!}\nMnemonic:          ${anvil.mnemonic}\nListening on 127.0.0.1:45407\n`);
    const fromApi = (await nodes.http.get(`/users/me/nodes/${nodeId}/logs`).query({ lines: 10_000 }).set(bearer(user.clientToken)).expect(200))
      .body as string[];
    const fromBus = (await platform.bus.request('nodes.logs', { nodeId })).lines;
    for (const lines of [fromApi, fromBus]) {
      const text = lines.join('\n');
      expect([text.includes(anvil.keys[0]!), text.includes(anvil.mnemonic), text.includes('45407')]).toEqual([false, false, false]);
      expect(lines).toEqual(
        expect.arrayContaining(['(0) [redacted: private key]', 'Mnemonic:          [redacted: mnemonic]', 'Listening on [redacted: internal address]']),
      );
    }
  }, 180_000);
});

test("a failure's reason, which the node's user reads, quotes the software's last output redacted", async () => {
  const rootDir = await mkdtemp(path.join(os.tmpdir(), 'node-log-secrets-'));
  // Stands in for a litecoind that cannot bind its RPC port, printing what Bitcoin Core prints then.
  const failing = path.join(rootDir, 'litecoind-that-cannot-bind');
  await writeFile(
    failing,
    [
      '#!/bin/sh',
      'for arg; do case "$arg" in -rpcport=*) port="${arg#-rpcport=}";; esac; done',
      'echo "2026-11-25T09:22:30Z Binding RPC on address 127.0.0.1 port $port failed."',
      'echo "Error: Unable to start HTTP server. See debug log for details." >&2',
      'exit 1',
    ].join('\n'),
  );
  await chmod(failing, 0o755);
  const driver = createLocalDriver(
    testDriverOptions(rootDir, { binaries: { litecoind: failing }, restart: { initialDelayMs: 20, maxDelayMs: 50, failuresBeforeGivingUp: 2 } }),
  );
  try {
    const nodeId = `node-${randomUUID()}`;
    await driver.ensure({ id: nodeId, image: 'ltc', large: false, dev: true, txindex: false });
    const reason = await waitFor('the node to fail', async () => {
      const status = await driver.status(nodeId);
      return status.state === 'failed' ? status.reason : undefined;
    });
    const { rpcPort } = JSON.parse(await readFile(path.join(rootDir, nodeId, 'node.json'), 'utf8')) as { rpcPort: number };
    expect(reason).toContain('Binding RPC on address 127.0.0.1 port [redacted: port] failed.');
    expect(reason).toContain('Unable to start HTTP server');
    expect(reason).not.toMatch(new RegExp(`\\b${rpcPort}\\b`));
  } finally {
    await driver.close({ stopNodes: true });
    await rm(rootDir, { recursive: true, force: true });
  }
});
