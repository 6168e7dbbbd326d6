import type { Channel, ChannelModel, GetMessage } from 'amqplib';
import { durableQueues } from './bus';

/**
 * The broadcast subscriptions of the services (`<service>.revocations`, the node-proxy's routes):
 * each has a dead-letter queue of its own, `<prefix>.<name>.dead`.
 */
export const BROADCAST_SUBSCRIPTIONS = ['node-proxy.routes', 'node-proxy.revocations', 'nodes.revocations', 'staking.revocations'] as const;

/** A dead-letter queue, by its name without the prefix, and where a replay sends its messages. */
export interface DeadLetterQueue {
  name: string;
  /** The durable queue its messages came from (without the prefix); undefined for a broadcast subscription's. */
  replaysTo: string | undefined;
}

/** Every dead-letter queue an installation can have. */
export function deadLetterQueues(): DeadLetterQueue[] {
  return [
    ...Object.keys(durableQueues).map((queue) => ({ name: `${queue}.dead`, replaysTo: queue })),
    ...BROADCAST_SUBSCRIPTIONS.map((name) => ({ name: `${name}.dead`, replaysTo: undefined })),
  ];
}

/** A dead letter as an operator sees it. */
export interface DeadLetterInfo {
  messageId: string | undefined;
  kind: string | undefined;
  /** Why it was dead-lettered (`x-error`). */
  reason: string | undefined;
  /** How many times it was tried before (`x-attempts`). */
  attempts: number;
  bytes: number;
}

function infoOf(message: GetMessage): DeadLetterInfo {
  const { messageId, type, headers } = message.properties as { messageId?: string; type?: string; headers?: Record<string, unknown> };
  return {
    messageId,
    kind: type,
    reason: typeof headers?.['x-error'] === 'string' ? headers['x-error'] : undefined,
    attempts: Number(headers?.['x-attempts'] ?? 0) || 0,
    bytes: message.content.length,
  };
}

/**
 * Runs `work` on a channel of its own, closed afterwards: closing returns every message taken
 * and not acknowledged to its queue, in its place.
 */
async function withChannel<T>(connection: ChannelModel, work: (channel: Channel) => Promise<T>): Promise<T> {
  const channel = await connection.createChannel();
  try {
    return await work(channel);
  } finally {
    await channel.close().catch(() => undefined);
  }
}

/** How many messages a queue holds; undefined when it does not exist (checking it closes the channel, hence one of its own). */
async function countOf(connection: ChannelModel, queue: string): Promise<number | undefined> {
  const channel = await connection.createChannel();
  channel.on('error', () => undefined);
  try {
    return (await channel.checkQueue(queue)).messageCount;
  } catch {
    return undefined;
  } finally {
    await channel.close().catch(() => undefined);
  }
}

/**
 * The dead letters of one queue (the first `limit`), read without removing them: each is taken
 * unacknowledged, and all go back when the channel closes. Undefined when the queue does not exist.
 */
export async function listDeadLetters(
  connection: ChannelModel,
  prefix: string,
  queue: DeadLetterQueue,
  limit: number,
): Promise<{ count: number; letters: DeadLetterInfo[] } | undefined> {
  const name = `${prefix}.${queue.name}`;
  const count = await countOf(connection, name);
  if (count === undefined) return undefined;
  const letters = await withChannel(connection, async (channel) => {
    const seen: DeadLetterInfo[] = [];
    while (seen.length < Math.min(limit, count)) {
      const message = await channel.get(name, { noAck: false });
      if (!message) break;
      seen.push(infoOf(message));
    }
    return seen;
  });
  return { count, letters };
}

export interface ReplayResult {
  replayed: string[];
  /** Asked-for ids the queue does not hold (already replayed, or never there). */
  notFound: string[];
}

/**
 * Puts the chosen dead letters (by message id, or every one with `ids` 'all') back on the durable
 * queue they came from, as fresh deliveries (no attempts counted, `x-replayed-from` set), and removes
 * each from the dead-letter queue only once the broker has confirmed its copy: a crash in between
 * leaves it in both, and the consumer, which de-duplicates, handles it once. Replaying an id
 * again finds nothing and changes nothing. The others stay, in their order.
 */
export async function replayDeadLetters(
  connection: ChannelModel,
  prefix: string,
  queue: DeadLetterQueue,
  ids: readonly string[] | 'all',
): Promise<ReplayResult> {
  if (!queue.replaysTo) {
    throw new Error(
      `${queue.name} is a broadcast subscription's: its consumers catch up from their snapshot on every reconnection, so there is nothing to replay`,
    );
  }
  const name = `${prefix}.${queue.name}`;
  const target = `${prefix}.${queue.replaysTo}`;
  const count = (await countOf(connection, name)) ?? 0;
  const wanted = ids === 'all' ? undefined : new Set(ids);
  const replayed: string[] = [];
  const channel = await connection.createConfirmChannel();
  try {
    // At most the messages there were at the start: anything dead-lettered meanwhile waits for the next run.
    for (let taken = 0; taken < count; taken += 1) {
      const message = await channel.get(name, { noAck: false });
      if (!message) break;
      const { messageId, type, contentType, headers } = message.properties as {
        messageId?: string;
        type?: string;
        contentType?: string;
        headers?: Record<string, unknown>;
      };
      if (wanted && (messageId === undefined || !wanted.has(messageId))) continue; // stays unacknowledged, goes back on close
      // A fresh start: its tries and the dead-lettering reason go; where it was replayed from is kept.
      const kept = Object.fromEntries(Object.entries(headers ?? {}).filter(([key]) => key !== 'x-error' && key !== 'x-attempts'));
      await new Promise<void>((resolve, reject) => {
        channel.sendToQueue(
          target,
          message.content,
          { persistent: true, messageId, type, contentType, headers: { ...kept, 'x-replayed-from': queue.name } },
          (error: unknown) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve()),
        );
      });
      channel.ack(message);
      if (messageId !== undefined) replayed.push(messageId);
    }
  } finally {
    await channel.close().catch(() => undefined);
  }
  return { replayed, notFound: wanted ? [...wanted].filter((id) => !replayed.includes(id)) : [] };
}
