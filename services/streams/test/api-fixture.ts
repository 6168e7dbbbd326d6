import { bearer, startTestPlatform, waitUntil, type TestNodes, type TestPlatform, type TestUser } from '@cloud/nodes/testing';
import { startTestReceiver, startTestStreams, type TestReceiver, type TestStreams } from '../src/testing';

// What the streams API suites share: the real platform (nodes made through the nodes API: a dev
// eth node runs anvil, btc the dev chain; their routes reach the streams service over the bus), the
// streams service, a webhook receiver of the test's own, two users and alice's two nodes. A suite
// calls useStreamsApi() in its describe; the bindings below are live (module exports), filled in
// by its beforeAll.

export let platform: TestPlatform;
export let nodes: TestNodes;
export let streams: TestStreams;
export let receiver: TestReceiver;
export let alice: TestUser;
export let bob: TestUser;
export let eth: string;
export let btc: string;

export interface StreamBody {
  id: string;
  name: string;
  nodeId: string;
  kind: string;
  url: string;
  addresses: string[];
  topics: string[];
  state: string;
  fromHeight: number | null;
  cursor: unknown;
  pendingEvents: number;
  deadLetters: number;
  failing: unknown;
  lastDelivery: Record<string, unknown> | null;
  createdAt: string;
  secret?: string;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const as = (user: TestUser) => bearer(user.clientToken);
export const row = (id: string) => streams.service.db('streams').where({ id }).first() as Promise<Record<string, unknown> | undefined>;
export const liveCount = async () => Number(((await streams.service.db('streams').whereNull('deleted_at').count({ n: '*' })) as [{ n: string | number }])[0].n);

/** A node of the user's through the nodes API, once the streams service has its route. */
export const nodeOf = async (user: TestUser, image: string): Promise<string> => {
  const { id } = (await nodes.http.post('/users/me/nodes').set(as(user)).send({ image }).expect(200)).body as { id: string };
  await waitUntil(`the streams service to know ${id}`, () => streams.service.routes.get(id) !== undefined, 30_000, 20);
  return id;
};

export const create = (user: TestUser, body: Record<string, unknown>) => streams.http.post('/users/me/streams').set(as(user)).send(body);

/** The call is answered `status` with `{code, message}`, the message containing (or matching) `message`. */
export const refused = async (call: PromiseLike<{ status: number; body: unknown }>, status: number, code: string, message: RegExp | string) => {
  const response = await call;
  expect([response.status, response.body]).toEqual([
    status,
    { code, message: typeof message === 'string' ? expect.stringContaining(message) : expect.stringMatching(message) },
  ]);
};

export function useStreamsApi(): void {
  beforeAll(async () => {
    platform = await startTestPlatform();
    nodes = await platform.startNodes();
    streams = await startTestStreams(platform, {
      MAX_STREAMS_PER_USER: '4',
      STREAMS_MAX_ADDRESSES: '3',
      STREAMS_MAX_BACKFILL_BLOCKS: '30',
      STREAMS_ALLOW_TARGETS: 'loopback',
    });
    receiver = await startTestReceiver();
    [alice, bob] = [await platform.user(), await platform.user()];
    [eth, btc] = [await nodeOf(alice, 'eth'), await nodeOf(alice, 'btc')];
  });
  afterAll(async () => {
    await receiver?.close();
    await streams?.close();
    await platform?.close();
  });
}
