/**
 * `npm run dead-letters -- list [--queue <name>] [--limit <n>]`
 * `npm run dead-letters -- replay --queue <name> (--id <message id>... | --all)`
 *
 * A queue is named as `list` prints it, or without the prefix (`nodes.usage`, `nodes.usage.dead`).
 * Lists what each dead-letter queue of the installation holds (AMQP_URL, AMQP_PREFIX, as the
 * services read them), and replays chosen messages to the queue they came from. See
 * docs/decisions/019-dead-letters-and-bounded-growth.md.
 */
import { parseArgs } from 'node:util';
import { connect } from 'amqplib';
import { deadLetterQueues, listDeadLetters, replayDeadLetters } from './dead-letter-queues';

const USAGE = `usage: npm run dead-letters -- list [--queue <name>] [--limit <n>]
       npm run dead-letters -- replay --queue <name> (--id <message id>... | --all)`;

const IN_PROCESS = `AMQP_URL is not set, so the services run on the in-process bus: its dead letters live in the
memory of the process that dead-lettered them, each logged ("message put in the dead-letter queue",
with its queue, message id and reason) and counted (bus_messages_dead_lettered_total), and are
lost when that process exits. There is nothing to list or replay from outside it.`;

export interface CommandIo {
  env: Record<string, string | undefined>;
  out(text: string): void;
  err(text: string): void;
}

/** Runs the command; its exit code: 0 done, 1 failed, 2 not runnable as asked (usage, no broker). */
export async function runDeadLettersCommand(argv: string[], io: CommandIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      queue: { type: 'string' },
      limit: { type: 'string', default: '20' },
      id: { type: 'string', multiple: true },
      all: { type: 'boolean', default: false },
    },
  });
  const [command] = positionals;
  const url = io.env.AMQP_URL;
  const prefix = io.env.AMQP_PREFIX || 'cloud';
  if (command !== 'list' && command !== 'replay') {
    io.err(`${USAGE}\n`);
    return 2;
  }
  if (!url) {
    io.out(`${IN_PROCESS}\n`);
    return 2;
  }
  const queues = deadLetterQueues();
  // As `list` prints it (`<prefix>.nodes.usage.dead`) or without the prefix, with or without `.dead`.
  const asked = values.queue?.startsWith(`${prefix}.`) ? values.queue.slice(prefix.length + 1) : values.queue;
  const chosen = asked === undefined ? undefined : queues.find((queue) => queue.name === asked || queue.name === `${asked}.dead`);
  if (values.queue !== undefined && !chosen) {
    io.err(`no dead-letter queue ${values.queue}; there are: ${queues.map((queue) => queue.name).join(', ')}\n`);
    return 2;
  }
  const connection = await connect(url, { clientProperties: { connection_name: 'dead-letters tool' } });
  try {
    if (command === 'list') {
      const limit = Number(values.limit);
      if (!Number.isInteger(limit) || limit < 0) throw new Error(`--limit must be a whole number, not ${values.limit}`);
      for (const queue of chosen ? [chosen] : queues) {
        const listed = await listDeadLetters(connection, prefix, queue, limit);
        const replay = queue.replaysTo ? `replays to ${prefix}.${queue.replaysTo}` : 'broadcast: not replayed, its consumers resync';
        if (!listed) {
          io.out(`${prefix}.${queue.name}: not declared yet\n`);
          continue;
        }
        io.out(`${prefix}.${queue.name}: ${listed.count} message(s) (${replay})\n`);
        for (const letter of listed.letters) {
          io.out(`  ${letter.messageId ?? '(no id)'}  ${letter.kind ?? '?'}  ${letter.bytes} B  tried ${letter.attempts}x  ${letter.reason ?? ''}\n`);
        }
        if (listed.count > listed.letters.length) io.out(`  ... ${listed.count - listed.letters.length} more (--limit)\n`);
      }
      return 0;
    }
    if (!chosen || values.all === (values.id !== undefined)) {
      io.err(`replay needs --queue and either --id (repeatable) or --all\n${USAGE}\n`);
      return 2;
    }
    const result = await replayDeadLetters(connection, prefix, chosen, values.all ? 'all' : values.id!);
    io.out(`replayed ${result.replayed.length} to ${prefix}.${chosen.replaysTo}: ${result.replayed.join(', ') || '-'}\n`);
    if (result.notFound.length > 0) io.out(`not in ${prefix}.${chosen.name} (already replayed, or never there): ${result.notFound.join(', ')}\n`);
    return 0;
  } finally {
    await connection.close();
  }
}
