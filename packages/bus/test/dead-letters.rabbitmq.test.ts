import { connect, type ChannelModel } from 'amqplib';
import { busMetrics, InProcessBus, RabbitMqBus, type AnyBusMessage } from '../src';
import { deadLetterQueues, listDeadLetters, replayDeadLetters, type DeadLetterQueue } from '../src/dead-letter-queues';
import { runDeadLettersCommand } from '../src/dead-letters-command';
import { deleteBusTopology, TEST_AMQP_URL, uniqueBusPrefix } from '../src/testing';
import { callRecorded, FAST_RETRY, recordingLogger, waitUntil } from './helpers';

/** Runs the operators' command as `npm run dead-letters -- ...` does; its exit code and output. */
async function run(argv: string[], env: Record<string, string | undefined>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runDeadLettersCommand(argv, { env, out: (text) => (stdout += text), err: (text) => (stderr += text) });
  return { code, stdout, stderr };
}
const QUEUE: DeadLetterQueue = deadLetterQueues().find((queue) => queue.name === 'accounts.call-events.dead')!;

async function deadLettered(queue: string): Promise<number> {
  const metric = (await busMetrics.getMetricsAsJSON()).find((each) => each.name === 'bus_messages_dead_lettered_total');
  return (metric?.values ?? []).filter((value) => value.labels.queue === queue).reduce((sum, value) => sum + value.value, 0);
}

/** The call-events queue's consumer: fails for a poisoned event id, and counts each event id it took, as the accounts service de-duplicates them. */
function consumer(poisoned: Set<string>, handled: string[]) {
  return {
    queue: 'accounts.call-events' as const,
    handle: async (messages: AnyBusMessage[]) => {
      for (const each of messages) {
        if (each.kind !== 'call.recorded') continue;
        if (poisoned.has(each.payload.id)) throw new Error(`cannot store ${each.payload.id}`);
        handled.push(each.id);
      }
    },
  };
}

describe('dead letters on RabbitMQ: logged and counted when dead-lettered, listed, replayed once', () => {
  let prefix: string;
  let bus: RabbitMqBus;
  let connection: ChannelModel;
  const log = recordingLogger('dead-letter-test');
  const poisoned = new Set<string>();
  const handled: string[] = [];
  const events = [callRecorded(1), callRecorded(2), callRecorded(3)];

  beforeAll(async () => {
    prefix = uniqueBusPrefix('dead');
    bus = await RabbitMqBus.connect({ url: TEST_AMQP_URL, prefix, service: 'dead-letter-test', logger: log.logger, retry: FAST_RETRY });
    await bus.waitUntilConnected();
    connection = await connect(TEST_AMQP_URL);
    for (const event of events) poisoned.add(event.payload.id);
    await bus.subscribe(consumer(poisoned, handled));
  });
  afterAll(async () => {
    await connection?.close();
    await bus?.close();
    if (bus) await deleteBusTopology(TEST_AMQP_URL, bus.declaredNames());
  });

  it('logs and counts each message as it is dead-lettered', async () => {
    const before = await deadLettered('accounts.call-events.dead');
    await bus.publish(events);
    await waitUntil('three messages are dead-lettered', async () => (await listDeadLetters(connection, prefix, QUEUE, 10))?.count === 3);
    expect(await deadLettered('accounts.call-events.dead')).toBe(before + 3);
    const lines = log.lines.filter((line) => line.message === 'message put in the dead-letter queue');
    expect(lines.map((line) => line.messageId).sort()).toEqual(events.map((event) => event.id).sort());
    expect(lines[0]).toMatchObject({
      level: 'error',
      queue: 'accounts.call-events.dead',
      reason: expect.stringMatching(/^failed 3 times: cannot store event-/),
    });
  });

  it('lists them without taking them, oldest first, with why and how often they were tried', async () => {
    const listed = await listDeadLetters(connection, prefix, QUEUE, 10);
    expect(listed!.letters.map((letter) => letter.messageId)).toEqual(events.map((event) => event.id));
    expect(listed!.letters[0]).toMatchObject({ kind: 'call.recorded', attempts: 2, reason: expect.stringContaining('cannot store') });
    // Still there, in their order, after being listed (twice).
    expect((await listDeadLetters(connection, prefix, QUEUE, 2))!.letters.map((letter) => letter.messageId)).toEqual(
      events.slice(0, 2).map((event) => event.id),
    );
    expect((await listDeadLetters(connection, prefix, QUEUE, 10))!.count).toBe(3);
    // A queue nobody declared is told apart from an empty one.
    expect(await listDeadLetters(connection, `${prefix}-nobody`, QUEUE, 10)).toBeUndefined();
  });

  it('replays a chosen message once: the consumer handles it, and replaying it again finds nothing', async () => {
    poisoned.clear(); // the cause is fixed
    const [first, second, third] = events.map((event) => event.id);
    expect(await replayDeadLetters(connection, prefix, QUEUE, [second!])).toEqual({ replayed: [second], notFound: [] });
    await waitUntil('the replayed message is handled', () => handled.includes(second!));
    expect((await listDeadLetters(connection, prefix, QUEUE, 10))!.letters.map((letter) => letter.messageId)).toEqual([first, third]);

    expect(await replayDeadLetters(connection, prefix, QUEUE, [second!])).toEqual({ replayed: [], notFound: [second] });
    expect(await replayDeadLetters(connection, prefix, QUEUE, 'all')).toEqual({ replayed: [first, third], notFound: [] });
    await waitUntil('every replayed message is handled', () => handled.length === 3);
    await new Promise((resolve) => setTimeout(resolve, 200)); // nothing more arrives
    expect([...handled].sort()).toEqual([first, second, third].sort());
    expect((await listDeadLetters(connection, prefix, QUEUE, 10))!.count).toBe(0);
  });

  it('refuses to replay a broadcast subscription’s dead letters (its consumers resync from their snapshot)', async () => {
    const broadcast = deadLetterQueues().find((queue) => queue.name === 'node-proxy.routes.dead')!;
    await expect(replayDeadLetters(connection, prefix, broadcast, 'all')).rejects.toThrow(/broadcast subscription/);
  });

  it('the command (npm run dead-letters) lists and replays, and says what it does on the in-process bus', async () => {
    await bus.publish([callRecorded(9)]);
    const poison = callRecorded(10);
    poisoned.add(poison.payload.id);
    await bus.publish([poison]);
    await waitUntil('the poisoned message is dead-lettered', async () => (await listDeadLetters(connection, prefix, QUEUE, 10))?.count === 1);
    const env = { AMQP_URL: TEST_AMQP_URL, AMQP_PREFIX: prefix };
    const listed = await run(['list', '--queue', 'accounts.call-events'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${prefix}.accounts.call-events.dead: 1 message(s) (replays to ${prefix}.accounts.call-events)`);
    expect(listed.stdout).toContain(`${poison.id}  call.recorded`);
    const all = await run(['list'], env);
    expect(all.stdout).toContain(`${prefix}.node-proxy.routes.dead: not declared yet`);

    poisoned.clear();
    // Named as `list` printed it, prefix and all.
    const replayed = await run(['replay', '--queue', `${prefix}.accounts.call-events.dead`, '--id', poison.id], env);
    expect(replayed).toMatchObject({ code: 0, stdout: `replayed 1 to ${prefix}.accounts.call-events: ${poison.id}\n` });
    await waitUntil('the replayed message is handled', () => handled.includes(poison.id));
    const again = await run(['replay', '--queue', 'accounts.call-events', '--id', poison.id], env);
    expect(again.stdout).toContain(`not in ${prefix}.accounts.call-events.dead (already replayed, or never there): ${poison.id}`);
    expect(handled.filter((id) => id === poison.id)).toHaveLength(1);

    expect(await run(['replay', '--queue', 'accounts.call-events'], env)).toMatchObject({ code: 2, stderr: expect.stringContaining('either --id') });
    expect(await run(['list'], {})).toMatchObject({ code: 2, stdout: expect.stringContaining('in-process bus') });
  });

  it('on the in-process bus, a dead-lettered message is logged and counted too', async () => {
    const memory = recordingLogger('in-process');
    const inProcess = new InProcessBus(memory.logger, FAST_RETRY);
    const before = await deadLettered('accounts.call-events.dead');
    const bad = callRecorded(20);
    await inProcess.subscribe(consumer(new Set([bad.payload.id]), []));
    await inProcess.publish([bad]);
    await waitUntil('it is dead-lettered', () => inProcess.deadLetters('accounts.call-events').length === 1);
    expect(await deadLettered('accounts.call-events.dead')).toBe(before + 1);
    expect(memory.lines).toContainEqual(
      expect.objectContaining({ message: 'message put in the dead-letter queue', queue: 'accounts.call-events.dead', messageId: bad.id }),
    );
    await inProcess.close();
  });
});
