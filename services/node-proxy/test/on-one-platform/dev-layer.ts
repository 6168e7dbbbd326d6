import { execFile } from 'node:child_process';
import { Agent } from 'node:http';
import { promisify } from 'node:util';
import { FetchRequest, JsonRpcProvider, Wallet } from 'ethers';
import type { NodeProxy } from '../../src';
import { DEFAULT_FILTER_DIR } from '../../src/config';
import { loadMethodLists } from '../../src/json-rpc/method-policy';
import { findOnPath } from '@cloud/nodes/testing';
import { callProxy, platformRefusal as refusal } from '../client';
import { lookup } from '../websocket-client';
import { waitUntil, type CreatedNode, type ProxyPlatform, type TestUser } from '../harness';
import { sharedProxyPlatform } from '../shared-platform';

const lists = loadMethodLists(DEFAULT_FILTER_DIR);
const ONE_ETHER = '0xde0b6b3a7640000';

/**
 * The dev layer (issue 27): on a node whose route says `dev: true` its owner funds and mines
 * through the proxy, on real anvil and litecoind; on a node whose route does not (a real-network
 * node to the proxy, which decides by the route alone) every dev-layer method is refused. The
 * second proxy is such a replica: it holds the same nodes' routes with `dev: false`.
 */
describe('the dev layer, against anvil and litecoind through the proxy', () => {
  let platform: ProxyPlatform;
  let devProxy: NodeProxy;
  let realProxy: NodeProxy;
  let user: TestUser;
  let eth: CreatedNode;
  let ltc: CreatedNode;

  beforeAll(async () => {
    platform = sharedProxyPlatform();
    const env = { PROXY_TLS: 'off', PROXY_RATE_PER_SECOND: '100000', PROXY_RATE_BURST: '100000' };
    [devProxy, realProxy] = await Promise.all([platform.startProxy(env), platform.startProxy(env)]);
    user = await platform.user();
    [eth, ltc] = await Promise.all([platform.createNode(user, { image: 'eth' }), platform.createNode(user, { image: 'ltc' })]);
    // The nodes run dev chains (LOCAL_NETWORKS=dev); to the second proxy they are real-network
    // nodes: their routes with dev false, at a revision the platform's own messages stay below.
    for (const node of [eth, ltc]) {
      const route = realProxy.context.table.get(node.id)!;
      expect(route.dev).toBe(true);
      realProxy.context.table.apply({ ...route, dev: false, revision: route.revision + 1_000_000 });
      expect(realProxy.context.table.get(node.id)?.dev).toBe(false);
    }
  }, 120_000);
  afterAll(() => platform?.close());

  const ethCall = (proxy: NodeProxy, body: unknown) => callProxy(proxy, 'eth', { host: eth.address, auth: `${eth.nodeUser}:${eth.nodePass}`, body });
  const ethResult = async (proxy: NodeProxy, method: string, params: unknown[] = []) => {
    const answer = await ethCall(proxy, { jsonrpc: '2.0', id: method, method, params });
    expect([method, answer.status, (answer.body as { error?: unknown }).error]).toEqual([method, 200, undefined]);
    return (answer.body as { result: unknown }).result;
  };
  const ltcCall = (proxy: NodeProxy, body: unknown) => callProxy(proxy, 'ltc', { host: ltc.address, auth: `${ltc.nodeUser}:${ltc.nodePass}`, body });
  const ltcResult = async (proxy: NodeProxy, method: string, params: unknown[] = []) => {
    const answer = await ltcCall(proxy, { jsonrpc: '1.0', id: method, method, params });
    expect([method, answer.status, (answer.body as { error?: unknown }).error]).toEqual([method, 200, null]);
    return (answer.body as { result: unknown }).result;
  };

  /** ethers v6 on the proxy's eth port, as a user's code would call it. */
  function ethersOn(proxy: NodeProxy): JsonRpcProvider {
    const request = new FetchRequest(`http://${eth.address}:${proxy.ports.eth}/`);
    request.setCredentials(eth.nodeUser!, eth.nodePass!);
    request.allowInsecureAuthentication = true;
    request.getUrlFunc = FetchRequest.createGetUrlFunc({ agent: new Agent({ lookup }) });
    return new JsonRpcProvider(request, undefined, { staticNetwork: true, batchMaxCount: 1 });
  }

  it('on a dev eth node: anvil_setBalance funds a fresh wallet and evm_mine mines, and the funded accounts are there to use', async () => {
    const wallet = Wallet.createRandom().address;
    expect(await ethResult(devProxy, 'anvil_setBalance', [wallet, ONE_ETHER])).toBeNull();
    expect(BigInt((await ethResult(devProxy, 'eth_getBalance', [wallet, 'latest'])) as string)).toBe(10n ** 18n);
    const before = Number(await ethResult(devProxy, 'eth_blockNumber'));
    expect(await ethResult(devProxy, 'evm_mine')).toBe('0x0');
    expect(Number(await ethResult(devProxy, 'eth_blockNumber'))).toBeGreaterThan(before);
    // anvil's own funded accounts (a random mnemonic of this node's), listed and used.
    const accounts = (await ethResult(devProxy, 'eth_accounts')) as string[];
    expect(accounts).toHaveLength(10);
    const to = Wallet.createRandom().address;
    const hash = (await ethResult(devProxy, 'eth_sendTransaction', [{ from: accounts[0], to, value: '0x3039' }])) as string;
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    await waitUntil('the transaction to be mined', async () => (await ethResult(devProxy, 'eth_getTransactionReceipt', [hash])) !== null, 30_000, 200);
    expect(BigInt((await ethResult(devProxy, 'eth_getBalance', [to, 'latest'])) as string)).toBe(12_345n);
  });

  it('on a dev eth node: still refuses what the dev layer leaves out (another host, whole state, the chain id), and ethers v6 calls it UNSUPPORTED_OPERATION', async () => {
    for (const [method, params] of [
      ['anvil_reset', [{ forking: { jsonRpcUrl: 'http://192.0.2.1:8545' } }]],
      ['anvil_setRpcUrl', ['http://192.0.2.1:8545']],
      ['anvil_dumpState', []],
      ['anvil_setChainId', [1]],
    ] as const) {
      const answer = await ethCall(devProxy, { jsonrpc: '2.0', id: 1, method, params });
      expect([method, answer.body]).toEqual([method, { jsonrpc: '2.0', id: 1, error: refusal(method) }]);
    }
    const provider = ethersOn(devProxy);
    try {
      await expect(provider.send('anvil_setRpcUrl', ['http://192.0.2.1:8545'])).rejects.toMatchObject({
        code: 'UNSUPPORTED_OPERATION',
        operation: 'anvil_setRpcUrl',
      });
      // And a dev-layer call through ethers works.
      expect(await provider.send('anvil_setBalance', [Wallet.createRandom().address, ONE_ETHER])).toBeNull();
    } finally {
      provider.destroy();
    }
  });

  it('on a dev ltc node: generatetoaddress mines to the developer’s address and the block count rises', async () => {
    // A regtest address of a key of the developer's own, made by the node's descriptor tools.
    const key = '02' + 'ab'.repeat(32);
    const { descriptor } = (await ltcResult(devProxy, 'getdescriptorinfo', [`wpkh(${key})`])) as { descriptor: string };
    const [address] = (await ltcResult(devProxy, 'deriveaddresses', [descriptor])) as string[];
    const before = (await ltcResult(devProxy, 'getblockcount')) as number;
    const hashes = (await ltcResult(devProxy, 'generatetoaddress', [3, address])) as string[];
    expect(hashes).toHaveLength(3);
    expect((await ltcResult(devProxy, 'getblockcount')) as number).toBeGreaterThanOrEqual(before + 3);
    const block = (await ltcResult(devProxy, 'getblock', [hashes[0], 2])) as { tx: { vout: { scriptPubKey: { address?: string; addresses?: string[] } }[] }[] };
    const paid = block.tx[0]!.vout.map(({ scriptPubKey }) => scriptPubKey.address ?? scriptPubKey.addresses?.[0]);
    expect(paid).toContain(address);
    expect(((await ltcResult(devProxy, 'generateblock', [address, []])) as { hash: string }).hash).toMatch(/^[0-9a-f]{64}$/);
    // Stopping stays refused, dev node or not.
    expect((await ltcCall(devProxy, { id: 1, method: 'stop', params: [] })).body).toEqual({ result: null, error: refusal('stop'), id: 1 });
  });

  it('on a real-network node: every dev-layer method is refused, in the node’s dialect, and nothing changed', async () => {
    const wallet = Wallet.createRandom().address;
    const ethBatch = lists.ethereum.dev.map((method, id) => ({ jsonrpc: '2.0', id, method, params: method === 'anvil_setbalance' ? [wallet, ONE_ETHER] : [] }));
    const ethAnswer = await ethCall(realProxy, ethBatch);
    expect(ethAnswer.status).toBe(200);
    expect(ethAnswer.body).toEqual(lists.ethereum.dev.map((method, id) => ({ jsonrpc: '2.0', id, error: refusal(method) })));
    // In the names' usual case too (anvil's own spelling).
    for (const method of ['anvil_setBalance', 'evm_mine', 'eth_accounts', 'eth_sendTransaction']) {
      expect([method, (await ethCall(realProxy, { jsonrpc: '2.0', id: 1, method, params: [] })).body]).toEqual([
        method,
        { jsonrpc: '2.0', id: 1, error: refusal(method) },
      ]);
    }
    expect(BigInt((await ethResult(realProxy, 'eth_getBalance', [wallet, 'latest'])) as string)).toBe(0n);

    // Litecoin Core answers 1.0 to every call: so does the proxy, in a batch with the node's own answers, even for a call that said 2.0.
    const ltcBatch = [
      { jsonrpc: '2.0', id: 'count', method: 'getblockcount', params: [] },
      ...lists.bitcoin.dev.map((method) => ({ jsonrpc: '2.0', id: method, method, params: [1, 'x'] })),
    ];
    const ltcAnswer = await ltcCall(realProxy, ltcBatch);
    expect(ltcAnswer.body).toEqual([
      { result: expect.any(Number), error: null, id: 'count' },
      ...lists.bitcoin.dev.map((method) => ({ result: null, error: refusal(method), id: method })),
    ]);
    expect(ltcAnswer.text).not.toContain('"jsonrpc"');

    // ethers v6 classifies the refusal as an unsupported operation (before: UNKNOWN_ERROR, "could not coalesce error").
    const provider = ethersOn(realProxy);
    try {
      await expect(provider.send('anvil_setBalance', [wallet, ONE_ETHER])).rejects.toMatchObject({
        code: 'UNSUPPORTED_OPERATION',
        operation: 'anvil_setBalance',
      });
      await expect(provider.send('evm_mine', [])).rejects.toMatchObject({ code: 'UNSUPPORTED_OPERATION' });
      expect(await provider.getBalance(wallet)).toBe(0n);
    } finally {
      provider.destroy();
    }
  });

  // Debian's litecoin-cli, over plain HTTP to 127.0.0.1 (routed by the Basic user name).
  const litecoinCli = findOnPath('litecoin-cli');
  (litecoinCli ? it : it.skip)(
    `litecoin-cli prints the refusal as it prints a node's error, and mines on the dev node${litecoinCli ? '' : ' (skipped: no litecoin-cli)'}`,
    async () => {
      const cli = async (proxy: NodeProxy, ...args: string[]) => {
        const options = [`-rpcconnect=127.0.0.1`, `-rpcport=${proxy.ports.ltc}`, `-rpcuser=${ltc.nodeUser}`, `-rpcpassword=${ltc.nodePass}`];
        try {
          const { stdout } = await promisify(execFile)(litecoinCli!, [...options, ...args], { timeout: 30_000 });
          return { code: 0, stdout, stderr: '' };
        } catch (error) {
          const failed = error as { code: number; stdout: string; stderr: string };
          return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
        }
      };
      const refused = await cli(realProxy, 'generatetodescriptor', '1', 'raw(51)');
      // Its exit status is the error code's absolute value, as for the node's own errors (32601 % 256).
      expect(refused).toEqual({
        code: 32601 % 256,
        stdout: '',
        stderr: 'error code: -32601\nerror message:\nmethod "generatetodescriptor" is not allowed on this hosted node\n',
      });
      const mined = await cli(devProxy, 'generatetodescriptor', '1', 'raw(51)');
      expect(mined.code).toBe(0);
      expect(JSON.parse(mined.stdout)).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
    },
  );
});
