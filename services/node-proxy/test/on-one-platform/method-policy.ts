import { once } from 'node:events';
import { Agent } from 'node:http';
import { FetchRequest, JsonRpcProvider, Wallet, type TransactionReceipt } from 'ethers';
import WebSocket, { type RawData } from 'ws';
import type { NodeProxy } from '../../src';
import { basic, callProxy } from '../client';
import { lookup } from '../websocket-client';
import { waitUntil, type CreatedNode, type ProxyPlatform } from '../harness';
import { sharedProxyPlatform } from '../shared-platform';

const notAllowed = (method: string) => `method "${method}" is not allowed on this hosted node`;
const notOffered = (method: string) => `method "${method}" is not allowed on this hosted node (not offered)`;
/** The refusal's `data`: the platform refused it (test/on-one-platform/dev-layer.ts has the owner's and the dev layer's). */
const byPlatform = (method: string) => ({
  refusedBy: 'platform',
  method,
  message: `the method "${method}" does not exist/is not available on this hosted node`,
});

/** A metric's value in the proxy's Prometheus text, 0 when absent. */
async function metric(proxy: NodeProxy, series: string): Promise<number> {
  const text = await (await fetch(`${proxy.adminUrl}/metrics`)).text();
  const line = text.split('\n').find((each) => each.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('the default-deny method policy, against anvil and litecoind through the proxy', () => {
  let platform: ProxyPlatform;
  let proxy: NodeProxy;
  let eth: CreatedNode;
  let ltc: CreatedNode;

  beforeAll(async () => {
    platform = sharedProxyPlatform();
    proxy = await platform.startProxy({ PROXY_TLS: 'off', PROXY_RATE_PER_SECOND: '100000', PROXY_RATE_BURST: '100000' });
    const user = await platform.user();
    [eth, ltc] = await Promise.all([platform.createNode(user, { image: 'eth' }), platform.createNode(user, { image: 'ltc' })]);
  }, 120_000);
  afterAll(() => platform?.close());

  const ethCall = (method: string, params: unknown[] = [], id: unknown = 1) =>
    callProxy(proxy, 'eth', { host: eth.address, auth: `${eth.nodeUser}:${eth.nodePass}`, body: { jsonrpc: '2.0', id, method, params } });
  const ltcCall = (method: string, params: unknown[] = []) =>
    callProxy(proxy, 'ltc', { host: ltc.address, auth: `${ltc.nodeUser}:${ltc.nodePass}`, body: { jsonrpc: '1.0', id: method, method, params } });
  const ltcResult = async (method: string, params: unknown[] = []) => ((await ltcCall(method, params)).body as { result: unknown }).result;

  it('refuses over HTTP what got through the denylist on anvil, and an invented method, leaving the balance as it was', async () => {
    const stranger = Wallet.createRandom().address;
    const before = {
      unknown: await metric(proxy, 'node_proxy_unknown_method_calls_total{listener="eth"}'),
      outcome: await metric(proxy, 'node_proxy_requests_total{listener="eth",outcome="unknown_method"}'),
    };
    const refused: [string, unknown[], string][] = [
      ['tenderly_setBalance', [stranger, '0x3635c9adc5dea00000'], notAllowed('tenderly_setBalance')],
      ['tenderly_addBalance', [stranger, '0x3635c9adc5dea00000'], notAllowed('tenderly_addBalance')],
      ['eth_sendTransactionSync', [{ from: stranger, to: stranger, value: '0x1' }], notAllowed('eth_sendTransactionSync')],
      ['foo_bar', [], notOffered('foo_bar')],
    ];
    for (const [method, params, message] of refused) {
      const answer = await ethCall(method, params, method);
      expect([method, answer.status, answer.body]).toEqual([
        method,
        200,
        { jsonrpc: '2.0', id: method, error: { code: -32601, message, data: byPlatform(method) } },
      ]);
    }
    expect((await ethCall('eth_getBalance', [stranger, 'latest'])).body).toMatchObject({ result: '0x0' });
    expect(await metric(proxy, 'node_proxy_unknown_method_calls_total{listener="eth"}')).toBe(before.unknown + 1);
    expect(await metric(proxy, 'node_proxy_requests_total{listener="eth",outcome="unknown_method"}')).toBe(before.outcome + 1);
  });

  it('refuses the same over a WebSocket, in place in a batch, and counts the unknown one', async () => {
    const before = await metric(proxy, 'node_proxy_unknown_method_calls_total{listener="eth"}');
    const stranger = Wallet.createRandom().address;
    const ws = new WebSocket(`ws://127.0.0.1:${proxy.ports.eth}/`, { headers: { host: eth.address, authorization: basic(`${eth.nodeUser}:${eth.nodePass}`) } });
    const answers: unknown[] = [];
    ws.on('message', (data: RawData) => answers.push(JSON.parse(String(data))));
    await once(ws, 'open');
    const call = (id: string, method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', id, method, params });
    ws.send(
      JSON.stringify([
        call('a', 'tenderly_setBalance', [stranger, '0x1000']),
        call('b', 'eth_chainId'),
        call('c', 'foo_bar'),
        call('d', 'eth_sendTransactionSync', [{ from: stranger }]),
      ]),
    );
    ws.send(JSON.stringify(call('e', 'eth_getBalance', [stranger, 'latest'])));
    await waitUntil('both answers', () => answers.length === 2, 10_000, 20);
    // The node may answer the single call before the batch the proxy merges its refusals into.
    expect(answers.find((answer) => Array.isArray(answer))).toEqual([
      { jsonrpc: '2.0', id: 'a', error: { code: -32601, message: notAllowed('tenderly_setBalance'), data: byPlatform('tenderly_setBalance') } },
      { jsonrpc: '2.0', id: 'b', result: '0x7a69' },
      { jsonrpc: '2.0', id: 'c', error: { code: -32601, message: notOffered('foo_bar'), data: byPlatform('foo_bar') } },
      { jsonrpc: '2.0', id: 'd', error: { code: -32601, message: notAllowed('eth_sendTransactionSync'), data: byPlatform('eth_sendTransactionSync') } },
    ]);
    expect(answers.find((answer) => !Array.isArray(answer))).toEqual({ jsonrpc: '2.0', id: 'e', result: '0x0' });
    ws.close();
    expect(await metric(proxy, 'node_proxy_unknown_method_calls_total{listener="eth"}')).toBe(before + 1);
  });

  it('still serves a user’s ordinary ethers work: blocks, estimateGas, eth_call, and a transaction it signed', async () => {
    const request = new FetchRequest(`http://${eth.address}:${proxy.ports.eth}/`);
    request.setCredentials(eth.nodeUser!, eth.nodePass!);
    // Plain HTTP on loopback here (PROXY_TLS=off); the HTTPS path is tested in proxy-ethereum.test.ts.
    request.allowInsecureAuthentication = true;
    request.getUrlFunc = FetchRequest.createGetUrlFunc({ agent: new Agent({ lookup }) });
    const provider = new JsonRpcProvider(request, undefined, { staticNetwork: true });
    try {
      // A key of the user's own, funded past the proxy (through it, anvil_setBalance is the dev layer's: test/on-one-platform/dev-layer.ts).
      const wallet = Wallet.createRandom(provider);
      const upstream = proxy.context.table.get(eth.id)!.upstream!;
      const funded = await fetch(upstream, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setBalance', params: [wallet.address, '0xde0b6b3a7640000'] }),
      });
      expect(await funded.json()).toMatchObject({ result: null });
      const to = Wallet.createRandom().address;
      expect((await provider.getBlock('latest'))?.number).toBeGreaterThanOrEqual(0);
      expect(await provider.estimateGas({ from: wallet.address, to, value: 1n })).toBe(21_000n);
      expect(await provider.call({ to, data: '0x' })).toBe('0x');
      const sent = await wallet.sendTransaction({ to, value: 12_345n });
      const receipt = (await sent.wait(1, 30_000)) as TransactionReceipt;
      expect(receipt.status).toBe(1);
      expect(await provider.getBalance(to)).toBe(12_345n);
    } finally {
      provider.destroy();
    }
  }, 180_000);

  it('refuses submitblock and submitheader on litecoind, even of a block the node has, which it would otherwise answer itself', async () => {
    await waitUntil('two blocks', async () => ((await ltcResult('getblockcount')) as number) >= 2, 30_000, 200);
    const hash = (await ltcResult('getblockhash', [1])) as string;
    const rawBlock = (await ltcResult('getblock', [hash, 0])) as string;
    const rawHeader = (await ltcResult('getblockheader', [hash, false])) as string;
    expect(rawBlock).toMatch(/^[0-9a-f]{160,}$/);
    for (const [method, params] of [
      ['submitblock', [rawBlock]],
      ['submitheader', [rawHeader]],
      ['SubmitBlock', [rawBlock]],
    ] as const) {
      const answer = await ltcCall(method, [...params]);
      expect([method, answer.body]).toEqual([
        method,
        { result: null, id: method, error: { code: -32601, message: notAllowed(method), data: byPlatform(method) } },
      ]);
    }
    expect(await ltcCall('frobnicate')).toMatchObject({ status: 200, body: { result: null, error: { code: -32601, message: notOffered('frobnicate') } } });
    // The node's chain is as it was: one tip, the active one, and block 1 unchanged.
    expect(await ltcResult('getchaintips')).toEqual([expect.objectContaining({ status: 'active', branchlen: 0 })]);
    expect(await ltcResult('getblockhash', [1])).toBe(hash);
  });
});
