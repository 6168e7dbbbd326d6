import { InProcessBus, type AnyBusMessage } from '@cloud/bus';
import { createLogger } from '@cloud/logging';
import { compileAccess, policyFor } from '../src/access/access-rules';
import { DEFAULT_FILTER_DIR } from '../src/config';
import { checkRequest, type Checked } from '../src/json-rpc/json-rpc';
import { loadMethodPolicies, type CallPolicy } from '../src/json-rpc/method-policy';
import { CallTally } from '../src/usage/call-tally';
import { countRateLimitedCalls, countRefusedCalls } from '../src/usage/json-rpc-usage';
import { UsageMeter } from '../src/usage/usage-meter';
import { waitUntil } from './harness';

// Refused calls in usage: each under the name the method policy knows it by (so a user sees which
// method their app is refused on), and every name no list has in one bucket, `other` (so a caller
// cannot grow the usage tables or messages by making names up).

const logger = createLogger({ service: 'json-rpc-usage-test', level: 'silent' });
const policies = loadMethodPolicies(DEFAULT_FILTER_DIR);
const caller = { nodeId: 'node-a', userId: 'user-1' };
const rpc = (method: string, id: number) => ({ jsonrpc: '2.0', id, method, params: [] });

describe('usage of refused JSON-RPC calls', () => {
  let bus: InProcessBus;
  const received: AnyBusMessage[] = [];
  let now = Date.parse('2026-11-27T10:00:00Z');

  beforeEach(async () => {
    received.length = 0;
    bus = new InProcessBus(logger);
    await bus.subscribe({ name: 'usage', bindings: ['node.usage'], handle: async (messages) => void received.push(...messages) });
  });
  afterEach(() => bus.close());

  /** What the meter publishes for the calls `count` tallies (booked as one request would be), as method → outcome → calls. */
  const published = async (count: (calls: CallTally) => void) => {
    const meter = new UsageMeter({ bus, logger, proxyId: 'proxy-1', intervalMs: 60_000, clock: () => now });
    const calls = new CallTally();
    count(calls);
    meter.book(caller, undefined, calls);
    now += 5_000;
    await meter.flush();
    await waitUntil('the usage message', () => received.length === 1, 2_000);
    const [message] = received;
    if (message?.kind !== 'node.usage') throw new Error(`expected node.usage, got ${message?.kind}`);
    const byMethod: Record<string, Record<string, number>> = {};
    for (const entry of message.payload.nodes[0]!.calls) byMethod[entry.method] = { ...byMethod[entry.method], [entry.outcome]: entry.calls };
    return byMethod;
  };
  const check = (body: unknown, policy: CallPolicy = policies.ethereum, maxBatch = 100): Checked => checkRequest(JSON.stringify(body), policy, maxBatch);

  it('counts a refused call under its method name when the lists know it, a refused prefix under the prefix', async () => {
    const byMethod = await published((calls) => {
      countRefusedCalls(calls, check(rpc('eth_sendRawTransaction', 1)));
      countRefusedCalls(calls, check(rpc('EVM_MINE', 1)));
      countRefusedCalls(calls, check(rpc('evm_mine', 2)));
      countRefusedCalls(calls, check(rpc('personal_unlockAccount', 3)));
      countRefusedCalls(calls, check(rpc('stop', 1), policies.bitcoin));
    });
    expect(byMethod).toEqual({
      // eth_sendRawTransaction is allowed: not refused, not counted here.
      evm_mine: { refused: 2 },
      'personal_*': { refused: 1 },
      stop: { refused: 1 },
    });
  });

  it('counts names no list has under other, however many the caller makes up, and a request refused whole there too', async () => {
    const madeUp = Array.from({ length: 500 }, (_, index) => rpc(`made_up_${index}`, index));
    const byMethod = await published((calls) => {
      for (let at = 0; at < madeUp.length; at += 100) countRefusedCalls(calls, check(madeUp.slice(at, at + 100)));
      countRefusedCalls(calls, check({ id: 1, method: 5 }));
      // Not JSON, and a batch over the limit: no call is judged on its own.
      countRefusedCalls(calls, checkRequest('{"method":"stop"', policies.bitcoin, 100));
      countRefusedCalls(calls, check([rpc('stop', 1), rpc('stop', 2), rpc('stop', 3)], policies.bitcoin, 2));
    });
    expect(byMethod).toEqual({ other: { refused: 500 + 1 + 1 + 3 } });
  });

  it('counts a batch part by part: forwarded calls as answered elsewhere, refused ones by name', async () => {
    const batch = check([rpc('eth_chainId', 1), rpc('eth_sign', 2), rpc('foo_bar', 3), rpc('debug_traceTransaction', 4)]);
    expect(batch).toMatchObject({ outcome: 'forward', refusedCount: 3 });
    const byMethod = await published((calls) => {
      countRefusedCalls(calls, batch);
      if (batch.outcome === 'forward') countRateLimitedCalls(calls, batch);
    });
    expect(byMethod).toEqual({
      eth_chainid: { rate_limited: 1 },
      eth_sign: { refused: 1, rate_limited: 1 },
      'debug_*': { refused: 1, rate_limited: 1 },
      other: { refused: 1, rate_limited: 1 },
    });
  });

  it("counts a call the node's owner refused under its name, on top of the platform's", async () => {
    const rules = compileAccess({ ipAllowlist: [], originAllowlist: [], refusedMethods: ['eth_getlogs'], ratePerSecond: null, maxAnswerBytes: null })!;
    const owner = policyFor(policies.ethereum.forNode(false), rules);
    const byMethod = await published((calls) => {
      countRefusedCalls(calls, check(rpc('eth_getLogs', 1), owner));
      countRefusedCalls(calls, check(rpc('admin_peers', 2), owner));
      countRefusedCalls(calls, check(rpc('nobody_knows', 3), owner));
    });
    expect(byMethod).toEqual({ eth_getlogs: { refused: 1 }, 'admin_*': { refused: 1 }, other: { refused: 1 } });
  });
});
