import { InProcessBus, type AnyBusMessage } from '@cloud/bus';
import { createLogger } from '@cloud/logging';
import { checkRequest } from '../src/json-rpc/json-rpc';
import { DEFAULT_FILTER_DIR } from '../src/config';
import { loadMethodPolicies } from '../src/json-rpc/method-policy';
import { UsageMeter } from '../src/usage/usage-meter';
import { WebSocketCallUsage } from '../src/usage/websocket-usage';
import { waitUntil } from './harness';

const logger = createLogger({ service: 'websocket-usage-test', level: 'silent' });
const { ethereum } = loadMethodPolicies(DEFAULT_FILTER_DIR);

describe("counting WebSocket calls by the node's answers", () => {
  const caller = { nodeId: 'node-a', userId: 'user-1' };
  let bus: InProcessBus;
  let meter: UsageMeter;
  let calls: WebSocketCallUsage;
  let counted: Record<string, Record<string, number>>;

  /** What the meter counted so far, by method and outcome, as its messages say. */
  let published = 0;
  let handled = 0;
  const countsOf = async () => {
    await meter.flush();
    await waitUntil("the meter's messages to be handled", () => handled === published, 2000, 5);
    return counted;
  };
  const forward = (body: unknown) => {
    const checked = checkRequest(JSON.stringify(body), ethereum, 100);
    if (checked.outcome !== 'forward') throw new Error('expected a forwarded call');
    calls.forwarded(checked);
  };

  beforeEach(async () => {
    counted = {};
    bus = new InProcessBus(logger);
    const add = (message: AnyBusMessage) => {
      if (message.kind !== 'node.usage') return;
      for (const { method, outcome, calls: n } of message.payload.nodes.flatMap((node) => node.calls)) {
        counted[method] = { ...counted[method], [outcome]: (counted[method]?.[outcome] ?? 0) + n };
      }
    };
    [published, handled] = [0, 0];
    await bus.subscribe({
      name: 'usage',
      bindings: ['node.usage'],
      handle: async (messages) => {
        messages.forEach(add);
        handled += messages.length;
      },
    });
    const publish = bus.publish.bind(bus);
    bus.publish = async (messages) => {
      published += messages.length;
      await publish(messages);
    };
    let now = Date.parse('2026-11-25T10:00:00Z');
    meter = new UsageMeter({ bus, logger, proxyId: 'p', intervalMs: 60_000, clock: () => (now += 1000) });
    calls = new WebSocketCallUsage(meter, caller);
  });
  afterEach(() => bus.close());

  it('counts a call when its answer comes, by id and in any order, as ok or node_error', async () => {
    forward({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' });
    forward({ jsonrpc: '2.0', id: 'b', method: 'eth_getBalance', params: ['x', 'latest'] });
    expect(await countsOf()).toEqual({});
    calls.answered('{"jsonrpc":"2.0","id":"b","error":{"code":-32602,"message":"bad address"}}');
    // A subscription notification between answers is no call's answer.
    calls.answered('{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"0x1","result":{}}}');
    calls.answered('{"jsonrpc":"2.0","id":1,"result":"0x10"}');
    expect(await countsOf()).toEqual({ eth_blocknumber: { ok: 1 }, eth_getbalance: { node_error: 1 } });
  });

  it('matches a batch answer call by call, and answers written in another form', async () => {
    forward([
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 2, method: 'eth_call', params: [{}, 'latest'] },
      { jsonrpc: '2.0', method: 'eth_blockNumber' }, // a notification: no answer, counted as it goes
    ]);
    expect(await countsOf()).toEqual({ eth_blocknumber: { ok: 1 } });
    calls.answered('[{"jsonrpc":"2.0","id":2,"error":{"code":3,"message":"execution reverted"}},{"id":1,"jsonrpc":"2.0","result":"0x1"}]');
    expect(await countsOf()).toEqual({ eth_blocknumber: { ok: 1 }, eth_chainid: { ok: 1 }, eth_call: { node_error: 1 } });
  });

  it("tells a reused id's calls apart in order, and counts what was never answered as forwarded (ok) when the socket closes", async () => {
    forward({ jsonrpc: '2.0', id: 7, method: 'eth_getBalance', params: ['x', 'latest'] });
    forward({ jsonrpc: '2.0', id: 7, method: 'eth_chainId' });
    calls.answered('{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"bad"}}');
    // An answer no call waits for (a node's own id) counts nothing.
    calls.answered('{"jsonrpc":"2.0","id":99,"result":"0x1"}');
    calls.closed();
    expect(await countsOf()).toEqual({ eth_getbalance: { node_error: 1 }, eth_chainid: { ok: 1 } });
  });

  it('stops waiting past 1024 calls: the rest count as ok when forwarded, so a caller cannot grow the proxy', async () => {
    for (let id = 0; id < 1030; id += 1) forward({ jsonrpc: '2.0', id, method: 'eth_chainId' });
    expect(await countsOf()).toEqual({ eth_chainid: { ok: 6 } });
    for (let id = 0; id < 1030; id += 1) calls.answered(`{"jsonrpc":"2.0","id":${id},"result":"0x1"}`);
    expect(await countsOf()).toEqual({ eth_chainid: { ok: 1030 } });
  });
});
