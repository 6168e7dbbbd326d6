import { IMAGES, type ImageId } from '@cloud/chains';
import { nodeRpcAuthorization } from '@cloud/node-rpc-auth';
import type { NodeProxy } from '../src';
import { DEFAULT_FILTER_DIR } from '../src/config';
import { loadMethodLists, MethodPolicy } from '../src/json-rpc/method-policy';
import type { Family } from '../src/routing/interfaces';
import { methodsServed, programKind, unlisted } from './drift/node-methods';
import { startGethDev } from './drift/geth';
import { programText } from './drift/node-program';
import { startTestStaking, type TestStaking } from '@cloud/staking/testing';
import { startProxyPlatform, type ProxyPlatform, type TestUser } from './harness';
import { createValidatorNode } from './validator-node';

/**
 * The drift check: every method the node software the platform runs serves must be in the allowed
 * or the refused list of its family, so a new release cannot widen what users reach unseen. The
 * real programs are asked (see test/drift/); software that is not installed adds no test.
 */

interface Check {
  image: ImageId;
  what: string;
  /** What the software label must start with, when the test was told which program runs it. */
  software?: string;
  /** A method the family's software always serves, to show the check finds methods at all. */
  sample: string;
}

/** Optional software: the variable the nodes service reads its path from (README "Method rules"). */
const OPTIONAL = [
  { variable: 'BITCOIND_PATH', check: { image: 'btc', what: 'Bitcoin Core, BITCOIND_PATH', software: 'bitcoin-core', sample: 'getblockcount' } },
  {
    variable: 'BCHN_BITCOIND_PATH',
    check: { image: 'bch', what: 'Bitcoin Cash Node, BCHN_BITCOIND_PATH', software: 'bitcoin-cash-node', sample: 'getblockcount' },
  },
  { variable: 'AVALANCHEGO_PATH', check: { image: 'avalanche', what: 'avalanchego, AVALANCHEGO_PATH', software: 'avalanchego', sample: 'info.getNodeID' } },
] as const satisfies readonly { variable: string; check: Check }[];

const given = OPTIONAL.filter(({ variable }) => process.env[variable]);
const absent = OPTIONAL.filter(({ variable }) => !process.env[variable]);

const CHECKS: Check[] = [
  // litecoind when installed (LITECOIND_PATH or PATH), else the dev chain.
  { image: 'ltc', what: 'litecoind, or the dev chain without it', sample: 'getblockcount' },
  { image: 'eth', what: 'anvil', software: 'anvil', sample: 'eth_blockNumber' },
  // btc and avalanche run on the dev chain (its bitcoin and avalanche modes) unless their real software is given.
  ...(given.some(({ check }) => check.image === 'btc')
    ? []
    : [{ image: 'btc', what: 'the dev chain', software: 'cloud-dev-chain', sample: 'getblockcount' } as const]),
  ...(given.some(({ check }) => check.image === 'avalanche')
    ? []
    : [{ image: 'avalanche', what: 'the dev chain’s avalanche mode', software: 'cloud-dev-chain', sample: 'info.getNodeID' } as const]),
  ...given.map(({ check }) => check),
];

describe('the method drift check: every method the node software serves is allowed or refused', () => {
  const lists = loadMethodLists(DEFAULT_FILTER_DIR);
  let platform: ProxyPlatform;
  let proxy: NodeProxy;
  let user: TestUser;
  let staking: TestStaking;

  beforeAll(async () => {
    const binaries = Object.fromEntries(given.map(({ variable }) => [variable, process.env[variable]!]));
    platform = await startProxyPlatform({ nodesEnv: binaries });
    staking = await startTestStaking(platform);
    proxy = await platform.startProxy();
    user = await platform.user();
  }, 180_000);
  afterAll(async () => {
    await staking?.close();
    await platform?.close();
  });

  /** Every method the image's node serves, asked of the node itself (past the proxy), and the software that runs it. */
  async function servedBy(image: ImageId, family: Family) {
    const node = family === 'avalanche' ? await createValidatorNode(platform, staking, user, image as 'avalanche') : await platform.createNode(user, { image });
    const view = (await platform.nodes.http.get(`/users/me/nodes/${node.id}`).set('authorization', `Bearer ${user.clientToken}`)).body as { software: string };
    const route = proxy.context.table.get(node.id)!;
    const endpoint = { url: route.upstream!, authorization: nodeRpcAuthorization(platform.rpcKey, node.id) };
    const { program, text } = programText(Number(new URL(endpoint.url).port));
    const kind = programKind(view.software, family);
    return { software: view.software, program, served: await methodsServed(kind, endpoint, text, lists[family]) };
  }

  /** Fails naming every served method in neither list; and shows the check can fail, by dropping `sample` from the allowed list. */
  function expectEveryMethodListed(found: { software: string; program: string; served: Set<string> }, family: Family, sample: string): void {
    expect([found.program, found.served.has(sample)]).toEqual([found.program, true]);
    const missing = unlisted(found.served, new MethodPolicy(lists[family]));
    if (missing.length > 0) {
      throw new Error(
        `${found.software} (${found.program}) serves methods in neither list of filters/${family}.json; decide for each whether users may call it: ${missing.join(', ')}`,
      );
    }
    const withoutSample = new MethodPolicy({ allowed: lists[family].allowed.filter((name) => name !== sample.toLowerCase()), refused: lists[family].refused });
    expect(unlisted(found.served, withoutSample)).toEqual([sample]);
  }

  /**
   * The dev layer names methods the real software serves (anvil, Litecoin Core on regtest), so a
   * release that drops or renames one fails here rather than leaving a dead entry in the review.
   * The dev chain stands in with fewer (no generateblock): it is not held to the whole layer.
   */
  function expectDevLayerServed(found: { software: string; program: string; served: Set<string> }, family: Family): void {
    if (found.software.startsWith('cloud-dev-chain')) return;
    const served = new Set([...found.served].map((name) => name.toLowerCase()));
    const missing = lists[family].dev.filter((name) => !served.has(name));
    if (missing.length > 0)
      throw new Error(
        `${found.software} (${found.program}) does not serve these methods of the dev layer of filters/${family}.json; drop or rename them: ${missing.join(', ')}`,
      );
  }

  it.each(CHECKS)(
    '$image node ($what)',
    async ({ image, software, sample }) => {
      const family = IMAGES[image].family;
      const found = await servedBy(image, family);
      if (software) expect(found.software).toMatch(new RegExp(`^${software}`));
      expectEveryMethodListed(found, family, sample);
      expectDevLayerServed(found, family);
    },
    180_000,
  );

  // geth is run by no image; when given, it is checked as a geth node would serve the most.
  if (process.env.GETH_PATH) {
    it('geth (GETH_PATH, dev mode, every API module)', async () => {
      const geth = await startGethDev(process.env.GETH_PATH!);
      try {
        const { program, text } = programText(Number(new URL(geth.url).port));
        const served = await methodsServed('go-ethereum', { url: geth.url }, text, lists.ethereum);
        expectEveryMethodListed({ software: 'geth', program, served }, 'ethereum', 'eth_blockNumber');
      } finally {
        await geth.stop();
      }
    }, 600_000);
  } else {
    it.todo('geth: not checked, GETH_PATH is not set');
  }

  // Software not given is not checked, and says so in the summary as a to-do, never as a pass.
  for (const { variable, check } of absent) it.todo(`${check.image} node (${check.what}): not checked, ${variable} is not set`);
});
