import { CREDENTIALS_COUNTED_PER_NODE, InProcessBus, type AnyBusMessage, type Bus } from '@cloud/bus';
import { createLogger } from '@cloud/logging';
import { CallTally } from '../src/usage/call-tally';
import { UsageMeter } from '../src/usage/usage-meter';
import { waitUntil } from './harness';

const logger = createLogger({ service: 'usage-meter-test', level: 'silent' });

describe('the usage meter', () => {
  let now = Date.parse('2026-11-25T10:00:00Z');
  const received: AnyBusMessage[] = [];
  let live: InProcessBus;

  beforeEach(async () => {
    received.length = 0;
    live = new InProcessBus(logger);
    await live.subscribe({ name: 'usage', bindings: ['node.usage'], handle: async (messages) => void received.push(...messages) });
  });
  afterEach(() => live.close());

  const a = { nodeId: 'node-a', userId: 'user-1' };
  const b = { nodeId: 'node-b', userId: 'user-2' };

  const meterOn = (bus: Bus) => {
    const options = { bus, logger, proxyId: 'proxy-1', intervalMs: 60_000, clock: () => now };
    return { meter: new UsageMeter(options), options };
  };

  it('publishes calls per method and outcome with the node totals, and nothing for an empty interval', async () => {
    const { meter } = meterOn(live);
    meter.record(a, { requests: 3, bytesIn: 10, bytesOut: 20 });
    meter.count(a, 'getblockcount', 'ok', 2);
    meter.count(a, 'getblockcount', 'node_error');
    meter.count(a, 'other', 'refused', 0);
    meter.count(b, 'unread', 'unauthorized');
    now += 60_000;
    await meter.flush();
    await meter.flush();
    await waitUntil('a message', () => received.length >= 1, 2000);
    expect(received).toHaveLength(1);
    const [usage] = received;
    expect(usage).toMatchObject({ kind: 'node.usage', payload: { proxyId: 'proxy-1', from: '2026-11-25T10:00:00.000Z', to: '2026-11-25T10:01:00.000Z' } });
    expect(usage!.kind === 'node.usage' && usage!.payload.nodes).toEqual([
      {
        nodeId: 'node-a',
        userId: 'user-1',
        requests: 3,
        blocked: 0,
        bytesIn: 10,
        bytesOut: 20,
        calls: [
          { method: 'getblockcount', outcome: 'ok', calls: 2 },
          { method: 'getblockcount', outcome: 'node_error', calls: 1 },
        ],
        credentials: [],
        cachedCalls: 0,
        members: [],
      },
      {
        nodeId: 'node-b',
        userId: 'user-2',
        requests: 0,
        blocked: 0,
        bytesIn: 0,
        bytesOut: 0,
        calls: [{ method: 'unread', outcome: 'unauthorized', calls: 1 }],
        credentials: [],
        cachedCalls: 0,
        members: [],
      },
    ]);

    // After an idle interval, the next counts are dated from the end of the idle one, not its start.
    now += 600_000;
    await meter.flush();
    meter.count(a, 'getblockcount', 'ok');
    now += 60_000;
    await meter.flush();
    await waitUntil('a second message', () => received.length >= 2, 2000);
    expect(received).toHaveLength(2);
    expect(received[1]).toMatchObject({ payload: { from: '2026-11-25T10:11:00.000Z', to: '2026-11-25T10:12:00.000Z' } });
  });

  it('counts the calls made with each named credential too, by outcome, and bounds how many it counts per node', async () => {
    const { meter } = meterOn(live);
    const ci = { ...a, credentialId: 'cred-ci' };
    meter.count(ci, 'getblockcount', 'ok', 3);
    meter.count(ci, 'getblock', 'node_error');
    meter.count({ ...a, credentialId: 'cred-app' }, 'getblockcount', 'ok');
    meter.count(a, 'getblockcount', 'ok'); // a client access token: the node's, no credential
    for (let index = 0; index < CREDENTIALS_COUNTED_PER_NODE + 5; index += 1) meter.count({ ...b, credentialId: `cred-${index}` }, 'eth_chainid', 'ok');
    now += 60_000;
    await meter.flush();
    await waitUntil('a message', () => received.length >= 1, 2000);
    const nodes = received[0]!.kind === 'node.usage' ? received[0]!.payload.nodes : [];
    expect(nodes[0]).toMatchObject({
      nodeId: 'node-a',
      calls: [
        { method: 'getblockcount', outcome: 'ok', calls: 5 },
        { method: 'getblock', outcome: 'node_error', calls: 1 },
      ],
      credentials: [
        { credentialId: 'cred-ci', outcome: 'ok', calls: 3 },
        { credentialId: 'cred-ci', outcome: 'node_error', calls: 1 },
        { credentialId: 'cred-app', outcome: 'ok', calls: 1 },
      ],
    });
    // Every call of node-b is counted for the node; its credentials only up to the bound.
    expect(nodes[1]!.calls).toEqual([{ method: 'eth_chainid', outcome: 'ok', calls: CREDENTIALS_COUNTED_PER_NODE + 5 }]);
    expect(nodes[1]!.credentials).toHaveLength(CREDENTIALS_COUNTED_PER_NODE);
  });

  it('books a request at once: served with its bytes, its tallied calls for the node and the credential, its cached calls and the pool member that served it, nothing for neither', async () => {
    const { meter } = meterOn(live);
    const ci = { ...a, credentialId: 'cred-ci' };
    const batch = new CallTally();
    batch.count('eth_blocknumber', 'ok', 48);
    batch.count('eth_call', 'node_error');
    batch.count('other', 'refused');
    meter.book(ci, { blocked: 1, bytesIn: 3000, bytesOut: 2500 }, batch);
    const overRate = new CallTally();
    overRate.count('unread', 'rate_limited');
    meter.book(ci, undefined, overRate);
    meter.book(b, undefined, new CallTally()); // refused before anything was counted: not booked
    meter.book(a, { blocked: 0, bytesIn: 10, bytesOut: 20 }, new CallTally());
    const heads = new CallTally();
    heads.count('eth_blocknumber', 'ok', 3);
    meter.book(a, { blocked: 0, bytesIn: 30, bytesOut: 60 }, heads, 3);
    const served = new CallTally();
    served.count('eth_call', 'ok', 2);
    meter.book(a, { blocked: 0, bytesIn: 20, bytesOut: 40 }, served, 0, { nodeId: 'node-m1', calls: 2 });
    meter.book(a, { blocked: 0, bytesIn: 10, bytesOut: 20 }, served, 0, { nodeId: 'node-m2', calls: 1 });
    meter.book(a, { blocked: 0, bytesIn: 10, bytesOut: 20 }, served, 0, { nodeId: 'node-m1', calls: 1 });
    now += 60_000;
    await meter.flush();
    await waitUntil('a message', () => received.length >= 1, 2000);
    const nodes = received[0]!.kind === 'node.usage' ? received[0]!.payload.nodes : [];
    expect(nodes).toEqual([
      {
        nodeId: 'node-a',
        userId: 'user-1',
        requests: 6,
        blocked: 1,
        bytesIn: 3080,
        bytesOut: 2660,
        calls: [
          { method: 'eth_blocknumber', outcome: 'ok', calls: 51 },
          { method: 'eth_call', outcome: 'ok', calls: 6 },
          { method: 'eth_call', outcome: 'node_error', calls: 1 },
          { method: 'other', outcome: 'refused', calls: 1 },
          { method: 'unread', outcome: 'rate_limited', calls: 1 },
        ],
        credentials: [
          { credentialId: 'cred-ci', outcome: 'ok', calls: 48 },
          { credentialId: 'cred-ci', outcome: 'node_error', calls: 1 },
          { credentialId: 'cred-ci', outcome: 'refused', calls: 1 },
          { credentialId: 'cred-ci', outcome: 'rate_limited', calls: 1 },
        ],
        cachedCalls: 3,
        members: [
          { nodeId: 'node-m1', calls: 3 },
          { nodeId: 'node-m2', calls: 1 },
        ],
      },
    ]);
  });

  it('keeps a message the bus did not take, with its id, and sends it again before the next', async () => {
    const closed = new InProcessBus(logger);
    await closed.close();
    const { meter, options } = meterOn(closed);
    meter.count(a, 'eth_chainid', 'ok');
    await meter.flush();
    meter.count(a, 'eth_chainid', 'ok', 4);
    await meter.flush();
    options.bus = live;
    meter.count(a, 'eth_chainid', 'ok', 2);
    await meter.flush();
    await waitUntil('three messages', () => received.length >= 3, 2000);
    // Three intervals, three messages with ids of their own: the first two kept as they were.
    expect(received.map((each) => each.kind === 'node.usage' && each.payload.nodes[0]!.calls[0]!.calls)).toEqual([1, 4, 2]);
    expect(new Set(received.map((each) => each.id)).size).toBe(3);
  });
});
