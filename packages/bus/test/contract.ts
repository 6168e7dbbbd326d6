import {
  BusUnavailableError,
  encodeMessage,
  message,
  RpcError,
  RpcUnservedError,
  SharedBusView,
  type AnyBusMessage,
  type Bus,
  type BusMessage,
  type RetryPolicy,
} from '../src';
import net from 'node:net';
import { BrokerLink } from '../src/testing';
import { callEvents, callRecorded, FAST_RETRY, gate, waitUntil } from './helpers';

/** A dead-lettered message of the durable queue `accounts.call-events`: its body and why. */
export interface DeadLetterView {
  body: string;
  reason: string;
}

/** One installation of the bus (one prefix on a broker, or one in-process bus) for one test. */
export interface Installation {
  /** A connected bus; every bus of an installation acts as another instance of the same services. */
  instance(): Promise<Bus>;
  /** Everything dead-lettered from `accounts.call-events` so far, oldest first. */
  deadLetters(): Promise<DeadLetterView[]>;
  /** Closes every bus and removes what they left behind. May be called more than once. */
  close(): Promise<void>;
}

export interface ContractTarget {
  transport: Bus['transport'];
  open(retry: RetryPolicy): Promise<Installation>;
}

const QUEUE = 'accounts.call-events';
const byId = (messages: readonly BusMessage[]) => [...messages].sort((a, b) => a.id.localeCompare(b.id));
const ids = (messages: readonly BusMessage[]) => messages.map((m) => m.id);

/** Opens a connection to `port` and closes it: refused (ECONNREFUSED, as pg reports it) while the link there is cut. */
const reach = (port: number) =>
  new Promise<void>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });

const snapshot = {
  clientKeys: [{ userId: 'user-1', clientId: 'client-1' }],
  credentials: [{ userId: 'user-2', credentialsVersion: 3 }],
  users: ['user-3'],
};

/** What every transport must do the same way; run once per transport. */
export function busContract(target: ContractTarget): void {
  describe(`the ${target.transport} bus keeps the Bus contract`, () => {
    let installation: Installation;
    beforeEach(async () => {
      installation = await target.open(FAST_RETRY);
    });
    afterEach(() => installation.close());

    describe('durable queue', () => {
      it('delivers every published message once, unchanged, in batches no larger than batchSize', async () => {
        const consumer = await installation.instance();
        const producer = await installation.instance();
        const batches: AnyBusMessage[][] = [];
        await consumer.subscribe({
          queue: QUEUE,
          batchSize: 10,
          handle: async (messages) => {
            batches.push(messages);
          },
        });
        const sent = callEvents(60);
        for (let i = 0; i < sent.length; i += 15) await producer.publish(sent.slice(i, i + 15));
        await waitUntil('all 60 messages arrived', () => batches.flat().length >= 60);
        // Closing waits for batches in flight, so a duplicate delivered by then would be counted.
        await installation.close();
        const received = batches.flat();
        expect(received).toHaveLength(60);
        expect(new Set(ids(received)).size).toBe(60);
        expect(byId(received)).toEqual(byId(sent));
        for (const batch of batches) {
          expect(batch.length).toBeGreaterThanOrEqual(1);
          expect(batch.length).toBeLessThanOrEqual(10);
        }
      });

      it('keeps a message published before anyone subscribed until a consumer comes', async () => {
        const producer = await installation.instance();
        const sent = callEvents(5);
        await producer.publish(sent);
        const consumer = await installation.instance();
        const batches: AnyBusMessage[][] = [];
        await consumer.subscribe({
          queue: QUEUE,
          batchSize: 5,
          handle: async (messages) => {
            batches.push(messages);
          },
        });
        await waitUntil('the 5 waiting messages arrived', () => batches.flat().length >= 5);
        await installation.close();
        expect(byId(batches.flat())).toEqual(byId(sent));
        for (const batch of batches) expect(batch.length).toBeLessThanOrEqual(5);
      });

      it('shares the queue between replicas: each message reaches one of them, once', async () => {
        const replicas = [await installation.instance(), await installation.instance()];
        const got: AnyBusMessage[][] = [[], []];
        for (const [index, replica] of replicas.entries()) {
          await replica.subscribe({
            queue: QUEUE,
            handle: async (messages) => {
              got[index]!.push(...messages);
            },
          });
        }
        const sent = callEvents(40);
        await (await installation.instance()).publish(sent);
        await waitUntil('all 40 messages arrived', () => got.flat().length >= 40);
        await installation.close();
        expect(byId(got.flat())).toEqual(byId(sent));
        expect(got[0]!.length).toBeGreaterThan(0);
        expect(got[1]!.length).toBeGreaterThan(0);
      });
    });

    describe('broadcast', () => {
      it('gives every subscriber every matching message, calls onSubscribed, and skips kinds not bound', async () => {
        const [a, b, producer] = [await installation.instance(), await installation.instance(), await installation.instance()];
        const got = { a: [] as AnyBusMessage[], b: [] as AnyBusMessage[], userDeletions: [] as AnyBusMessage[] };
        const subscribed = { a: 0, b: 0, userDeletions: 0 };
        await a.subscribe({
          name: 'revocations',
          bindings: ['revocation.*'],
          handle: async (messages) => {
            got.a.push(...messages);
          },
          onSubscribed: () => {
            subscribed.a += 1;
          },
        });
        await b.subscribe({
          name: 'revocations',
          bindings: ['revocation.*'],
          batchSize: 2,
          handle: async (messages) => {
            got.b.push(...messages);
          },
          onSubscribed: () => {
            subscribed.b += 1;
          },
        });
        await b.subscribe({
          name: 'user-deletions',
          bindings: ['revocation.user-deleted'],
          handle: async (messages) => {
            got.userDeletions.push(...messages);
          },
          onSubscribed: () => {
            subscribed.userDeletions += 1;
          },
        });
        expect(subscribed).toEqual({ a: 1, b: 1, userDeletions: 1 });

        // Published first: were they routed to the subscribers, they would come before the revocations.
        const unbound = [
          callRecorded(1),
          message('node.created', {
            nodeId: 'node-1',
            userId: 'user-1',
            image: 'btc',
            chain: 'btc',
            revision: 0,
            state: 'provisioning',
            basic: null,
            upstream: null,
          }),
        ];
        await producer.publish(unbound);
        const revocations = [
          message('revocation.client-key-deleted', { userId: 'user-1', clientId: 'client-1' }),
          message('revocation.credentials-changed', { userId: 'user-1', credentialsVersion: 2 }),
          message('revocation.user-deleted', { userId: 'user-2' }),
        ];
        await producer.publish(revocations);
        await waitUntil('both subscribers got the 3 revocations', () => got.a.length >= 3 && got.b.length >= 3 && got.userDeletions.length >= 1);
        await installation.close();
        expect(got.a).toEqual(revocations);
        expect(got.b).toEqual(revocations);
        expect(got.userDeletions).toEqual([revocations[2]]);
        expect(subscribed).toEqual({ a: 1, b: 1, userDeletions: 1 });
      });
    });

    describe('failures', () => {
      it('delivers a message again while its handler fails, and it is handled once in the end', async () => {
        const bus = await installation.instance();
        const flaky = callRecorded(1);
        const seen: string[] = [];
        const handled: string[] = [];
        await bus.subscribe({
          queue: QUEUE,
          handle: async (messages) => {
            seen.push(...ids(messages));
            if (seen.filter((id) => id === flaky.id).length <= 2) throw new Error('database down');
            handled.push(...ids(messages));
          },
        });
        await bus.publish([flaky]);
        await waitUntil('the flaky message is handled', () => handled.length >= 1);
        // Anything still coming back for it would arrive before a message published now.
        const next = callRecorded(2);
        await bus.publish([next]);
        await waitUntil('the next message is handled', () => handled.includes(next.id));
        expect(seen).toEqual([flaky.id, flaky.id, flaky.id, next.id]);
        expect(handled).toEqual([flaky.id, next.id]);
        expect(await installation.deadLetters()).toEqual([]);
      });

      it('lets other messages pass while failed ones wait out their backoff', async () => {
        // Retries come back after 3 s at the earliest; the good message must not wait for them,
        // even with batches of one and so a prefetch window of two.
        const slow = await target.open({ maxAttempts: 3, baseDelayMs: 3000, maxDelayMs: 3000 });
        try {
          const bus = await slow.instance();
          const failing = [callRecorded(1), callRecorded(2), callRecorded(3)];
          const good = callRecorded(4);
          const failingIds = new Set(ids(failing));
          const seen: string[] = [];
          await bus.subscribe({
            queue: QUEUE,
            handle: async (messages) => {
              seen.push(...ids(messages));
              if (messages.some((m) => failingIds.has(m.id))) throw new Error('database down');
            },
          });
          await bus.publish([...failing, good]);
          await waitUntil('the good message is handled', () => seen.includes(good.id));
          expect([...seen].sort()).toEqual([...ids(failing), good.id].sort());
        } finally {
          await slow.close();
        }
      });

      it('retries a failed batch message by message, so the others are acknowledged at once', async () => {
        const bus = await installation.instance();
        const sent = callEvents(5);
        // First, so it is in the first batch; published before subscribing, so the five wait together.
        const flaky = sent[0]!;
        await bus.publish(sent);
        const calls: string[][] = [];
        const handled: string[] = [];
        await bus.subscribe({
          queue: QUEUE,
          batchSize: 5,
          handle: async (messages) => {
            calls.push(ids(messages));
            const tries = calls.filter((call) => call.includes(flaky.id)).length;
            if (ids(messages).includes(flaky.id) && tries <= 2) throw new Error('constraint violated');
            handled.push(...ids(messages));
          },
        });
        await waitUntil('all five are handled', () => handled.length >= 5);
        expect(await installation.deadLetters()).toEqual([]);
        await installation.close();
        expect([...handled].sort()).toEqual(ids(sent).sort());
        // The others were not held back by the flaky one's retries.
        expect(handled.at(-1)).toBe(flaky.id);
        expect(calls.filter((call) => call.includes(flaky.id))).toHaveLength(3);
        for (const call of calls) expect(call.length).toBeLessThanOrEqual(5);
        // A failed batch of several is followed at once by each of its messages alone.
        const [first] = calls;
        expect(first).toContain(flaky.id);
        if (first!.length > 1) expect(calls.slice(1, 1 + first!.length)).toEqual(first!.map((id) => [id]));
        if (target.transport === 'in-process') {
          // In process the batch is exactly what waited: all five, then each alone, then the flaky one after its backoff.
          expect(calls).toEqual([ids(sent), ...ids(sent).map((id) => [id]), [flaky.id]]);
        }
      });

      it('holds messages while the database cannot be reached, longer than their tries last, and handles each once when it is back: nothing dead-lettered', async () => {
        const bus = await installation.instance();
        // The database as the handler reaches it, through a relay cut for the outage.
        const database = await BrokerLink.open(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
        try {
          await database.cut();
          const tried: string[] = [];
          const handled: string[] = [];
          await bus.subscribe({
            queue: QUEUE,
            batchSize: 5,
            handle: async (messages) => {
              tried.push(...ids(messages));
              await reach(database.port);
              handled.push(...ids(messages));
            },
          });
          const sent = callEvents(3);
          await bus.publish(sent);
          // Three times as many tries as a message that fails for a reason of its own gets.
          await waitUntil('the messages are tried through the outage', () => tried.filter((id) => id === sent[0]!.id).length > 3 * FAST_RETRY.maxAttempts);
          expect(handled).toEqual([]);
          expect(await installation.deadLetters()).toEqual([]);

          await database.restore();
          await waitUntil('the held messages are handled', () => handled.length >= sent.length);
          // Anything still coming back for them would arrive before a message published now.
          const next = callRecorded(4);
          await bus.publish([next]);
          await waitUntil('the next message is handled', () => handled.includes(next.id));
          expect([...handled].sort()).toEqual([...ids(sent), next.id].sort());
          expect(await installation.deadLetters()).toEqual([]);
        } finally {
          await database.close();
        }
      });

      it('dead-letters a malformed message at once and one that fails every try, and keeps consuming', async () => {
        const bus = await installation.instance();
        const failing = callRecorded(7);
        let failingTries = 0;
        const handled: AnyBusMessage[] = [];
        await bus.subscribe({
          queue: QUEUE,
          handle: async (messages) => {
            if (messages.some((m) => m.id === failing.id)) {
              failingTries += 1;
              throw new Error('cannot store this one');
            }
            handled.push(...messages);
          },
        });
        const poison = message('call.recorded', { bogus: true } as never);
        const good = callRecorded(1);
        await bus.publish([poison, good]);
        await waitUntil('the good message is handled', () => handled.length >= 1);
        await waitUntil('the malformed message is dead-lettered', async () => (await installation.deadLetters()).length >= 1);
        let dead = await installation.deadLetters();
        expect(dead).toHaveLength(1);
        expect(dead[0]!.body).toBe(encodeMessage(poison));
        expect(dead[0]!.reason).toMatch(/^bad call\.recorded payload: /);
        expect(dead[0]!.reason).toContain('id');

        await bus.publish([failing]);
        await waitUntil('the failing message is dead-lettered', async () => (await installation.deadLetters()).length >= 2);
        dead = await installation.deadLetters();
        expect(dead).toHaveLength(2);
        expect(JSON.parse(dead[1]!.body)).toEqual(failing);
        expect(dead[1]!.reason).toBe(`failed ${FAST_RETRY.maxAttempts} times: cannot store this one`);

        const later = callRecorded(2);
        await bus.publish([later]);
        await waitUntil('a later message is handled', () => handled.some((m) => m.id === later.id));
        expect(ids(handled)).toEqual([good.id, later.id]);
        expect(failingTries).toBe(FAST_RETRY.maxAttempts);
        expect(await installation.deadLetters()).toHaveLength(2);
      });
    });

    describe('RPC', () => {
      it('answers a request from another instance', async () => {
        const server = await installation.instance();
        const client = await installation.instance();
        const requests: unknown[] = [];
        await server.serve('revocations.snapshot', async (request) => {
          requests.push(request);
          return snapshot;
        });
        await expect(client.request('revocations.snapshot', {}, 5000)).resolves.toEqual(snapshot);
        await expect(client.request('revocations.snapshot', {}, 5000)).resolves.toEqual(snapshot);
        expect(requests).toEqual([{}, {}]);
      });

      it('rejects with RpcError when the handler throws or answers outside the schema', async () => {
        const server = await installation.instance();
        const client = await installation.instance();
        let answer: 'throw' | 'bad' = 'throw';
        await server.serve('revocations.snapshot', async () => {
          if (answer === 'throw') throw new Error('revocation store unavailable');
          return { ...snapshot, users: 'everyone' } as never;
        });
        const failed = client.request('revocations.snapshot', {}, 5000);
        await expect(failed).rejects.toThrow(RpcError);
        await expect(failed).rejects.toThrow('revocations.snapshot failed at the server: revocation store unavailable');
        answer = 'bad';
        const bad = client.request('revocations.snapshot', {}, 5000);
        await expect(bad).rejects.toThrow(RpcError);
        await expect(bad).rejects.toThrow(/^revocations\.snapshot: bad reply: /);
      });

      it('rejects a request nobody serves with RpcUnservedError once its timeout has passed', async () => {
        const client = await installation.instance();
        const started = Date.now();
        const unserved = client.request('revocations.snapshot', {}, 300);
        await expect(unserved).rejects.toThrow(RpcUnservedError);
        await expect(unserved).rejects.toThrow('nobody served revocations.snapshot within 300 ms');
        expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      });

      it('answers a request sent before anyone served the method as soon as a server starts', async () => {
        const client = await installation.instance();
        const server = await installation.instance();
        const early = client.request('revocations.snapshot', {}, 10_000);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await server.serve('revocations.snapshot', async () => snapshot);
        await expect(early).resolves.toEqual(snapshot);
      });

      // In one process every instance is the same bus: none can go while another stays.
      (target.transport === 'rabbitmq' ? it : it.skip)(
        'does not leave a request waiting for a server that has gone: the next one to serve answers it',
        async () => {
          const client = await installation.instance();
          const first = await installation.instance();
          await first.serve('revocations.snapshot', async () => snapshot);
          await expect(client.request('revocations.snapshot', {}, 5000)).resolves.toEqual(snapshot);
          await first.close();
          const later = client.request('revocations.snapshot', {}, 10_000);
          await new Promise((resolve) => setTimeout(resolve, 300));
          const second = await installation.instance();
          await second.serve('revocations.snapshot', async () => ({ ...snapshot, users: ['user-4'] }));
          await expect(later).resolves.toEqual({ ...snapshot, users: ['user-4'] });
        },
      );
    });

    describe('readiness and closing', () => {
      it('is ready while connected; after close it is not, and publish rejects', async () => {
        const bus = await installation.instance();
        expect(() => bus.checkReady()).not.toThrow();
        await bus.publish([callRecorded()]);
        await bus.close();
        expect(() => bus.checkReady()).toThrow(BusUnavailableError);
        await expect(bus.publish([callRecorded()])).rejects.toThrow(BusUnavailableError);
      });

      it('waits for the batch being handled before close resolves', async () => {
        const bus = await installation.instance();
        const held = gate();
        let entered = false;
        let finished = false;
        await bus.subscribe({
          queue: QUEUE,
          handle: async () => {
            entered = true;
            await held.promise;
            finished = true;
          },
        });
        await bus.publish([callRecorded()]);
        await waitUntil('the handler has the message', () => entered);
        let closed = false;
        const closing = bus.close().then(() => {
          closed = true;
        });
        for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
        expect(closed).toBe(false);
        held.release();
        await closing;
        expect(finished).toBe(true);
      });
    });

    describe('one service closing on a shared bus (SharedBusView)', () => {
      it('stops only that service: its consumer gets nothing more, after the batch it holds; the others go on', async () => {
        const shared = await installation.instance();
        const closing = new SharedBusView(shared);
        const staying = new SharedBusView(shared);
        const held = gate();
        const closed: AnyBusMessage[] = [];
        const stayed: AnyBusMessage[] = [];
        let entered = false;
        await closing.subscribe({
          queue: QUEUE,
          handle: async (messages) => {
            entered = true;
            await held.promise;
            closed.push(...messages);
          },
        });
        await closing.serve('revocations.snapshot', async () => snapshot);
        const first = callRecorded(1);
        await shared.publish([first]);
        await waitUntil('the closing service holds a message', () => entered);

        let done = false;
        const closed$ = closing.close().then(() => {
          done = true;
        });
        for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
        expect(done).toBe(false);
        held.release();
        await closed$;
        expect(ids(closed)).toEqual([first.id]);

        // Published after it closed: the closing service gets none, and nobody answers its method.
        const later = [callRecorded(2), callRecorded(3)];
        await shared.publish(later);
        await staying.subscribe({ queue: QUEUE, handle: async (messages) => void stayed.push(...messages) });
        await waitUntil('the staying service has the later messages', () => stayed.length >= 2);
        expect(byId(stayed)).toEqual(byId(later));
        expect(closed).toHaveLength(1);
        await expect(shared.request('revocations.snapshot', {}, 300)).rejects.toThrow(RpcUnservedError);
        expect(() => shared.checkReady()).not.toThrow();
        expect(() => staying.checkReady()).not.toThrow();
      });
    });
  });
}
