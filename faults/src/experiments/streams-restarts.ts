// Issue 32: a `blocks` stream on a dev eth node, delivered to a receiver the experiment runs,
// while RabbitMQ is stopped and started again (stop_app/start_app: the broker itself, not the
// relay) and then the streams service is SIGKILLed and started again, under the load. Afterwards
// the receiver must hold every block from the first to the node's head at the end, in order (by
// seq), each signature checking out; repeats are allowed (at least once, de-duplicated on the id).
import { call, expectJson } from '../http';
import { seconds, underLoad, type Context, type ExperimentResult } from '../experiments';
import { internalRpc } from '../node-internal';
import { sleep, waitFor } from '../shell';
import { auditBlockStream } from '../stream-audit';
import { WebhookReceiver } from '../webhook-receiver';

/** A block mined this often on top of the node's own interval, so the faults fall mid-stream. */
const MINE_EVERY_MS = 300;
/** Blocks delivered before the first fault. */
const BLOCKS_BEFORE = 5;
/** How long the streams service may take, after the faults, to deliver up to the node's head. */
const CATCH_UP_MS = 90_000;

export function streamsRestarts(ctx: Context): Promise<ExperimentResult> {
  const { platform, users } = ctx;
  const user = users[0];
  if (!user) throw new Error('the streams experiment needs a load user with an eth node');
  const streams = platform.services.streams;
  const auth = { authorization: `Bearer ${user.clientToken}` };
  return underLoad(ctx, 'streams', 'streams: RabbitMQ restarted, then the streams service SIGKILLed and restarted, mid-stream', async () => {
    const receiver = new WebhookReceiver();
    await receiver.start();
    const stream = await expectJson<{ id: string; secret: string }>(
      'stream creation',
      call('POST', `${platform.streamsUrl}/users/me/streams`, { headers: auth, body: { nodeId: user.nodeId, kind: 'blocks', url: receiver.url } }),
    );
    receiver.secret = stream.secret;
    let mining = true;
    const miner = (async () => {
      while (mining) {
        await internalRpc(platform, user.nodeId, 'anvil_mine', ['0x1']).catch(() => undefined);
        await sleep(MINE_EVERY_MS);
      }
    })();
    const notes: string[] = [`stream ${stream.id} on ${user.nodeId} to ${receiver.url}`];
    const failures: string[] = [];
    const received = () => receiver.events().length;
    try {
      await waitFor(`${BLOCKS_BEFORE} blocks delivered`, async () => received() >= BLOCKS_BEFORE, 60_000);

      const brokerFrom = Date.now();
      await ctx.broker.stopApp();
      const atStop = received();
      await sleep((ctx.settings.outageSeconds * 1000) / 2);
      await ctx.broker.startApp();
      notes.push(`RabbitMQ stopped ${seconds(Date.now() - brokerFrom)}; ${received() - atStop} events arrived meanwhile (the database is the queue)`);
      await sleep(ctx.settings.afterSeconds * 1000);

      const killedAt = Date.now();
      const atKill = received();
      await streams.stop('SIGKILL');
      await sleep(3000);
      streams.start();
      const listenedAt = await streams.listening();
      await waitFor('the streams service to be ready', () => streams.ready(), 30_000).catch(() =>
        failures.push('the streams service was not ready within 30 s of its restart'),
      );
      const endedAt = Date.now();
      notes.push(
        `streams SIGKILLed with ${atKill} events taken; listening ${seconds(listenedAt - killedAt)} after, ready ${seconds(endedAt - listenedAt)} after that`,
      );

      await sleep(ctx.settings.afterSeconds * 1000);
      mining = false;
      await miner;
      const head = Number(await internalRpc<string>(platform, user.nodeId, 'eth_blockNumber'));
      const caughtUp = await waitFor(
        `block ${head} delivered`,
        async () => receiver.events().some((event) => event.type === 'block' && (event.height ?? -1) >= head),
        CATCH_UP_MS,
        250,
      ).then(
        () => true,
        () => false,
      );
      if (!caughtUp) failures.push(`block ${head} (the node's head after the faults) not delivered within ${CATCH_UP_MS / 1000} s`);
      const audit = auditBlockStream(receiver.deliveries);
      notes.push(
        `${receiver.deliveries.length} deliveries, ${audit.received} events (${audit.distinct} distinct, ${audit.repeats} repeats), blocks ${audit.firstHeight ?? '-'} to ${audit.lastHeight ?? '-'}; head at the end ${head}`,
      );
      failures.push(...audit.problems);
      return { endedAt, check: () => ({ failures, notes }) };
    } finally {
      mining = false;
      await miner;
      await call('DELETE', `${platform.streamsUrl}/users/me/streams/${stream.id}`, { headers: auth });
      await receiver.close();
    }
  });
}
