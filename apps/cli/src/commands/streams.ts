import { Option, type Command } from 'commander';
import { NotFoundError, type CloudClient, type DeliveryAttempt, type Stream, type StreamKind } from '@cloud/sdk';
import type { Context, ContextOf } from '../context';
import { UsageError } from '../exit-codes';
import { nonNegativeInteger, positiveInteger } from '../option-parsers';
import { note, printJson, printList, printRecord } from '../output';
import { resolveNodeId, resolvePoolId } from './node-names';

// streams create|list|info|update|pause|resume|rotate-secret|test|deliveries|dead-letters|replay|remove:
// a node's (or pool's) blocks or address activity POSTed to your URL, signed, in order, retried
// for a day, then kept as dead letters (services/streams/README.md). `info` and `remove` answer
// to `get` and `delete` too, the API's words.

const STREAM_ARGUMENT = "the stream's id, or its name when no other stream of yours has that name";
const TARGET_ARGUMENT = "the node to follow: its id, or its name when no other node of yours has it; or a pool's id";
const STREAM_ID = /^stream-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const POOL_ID = /^pool-/;

interface CreateOptions {
  url: string;
  kind: StreamKind;
  address?: string[];
  topic?: string[];
  fromHeight?: number;
  name?: string;
}

export function registerStreamCommands(program: Command, contextOf: ContextOf): void {
  const streams = program.command('streams').description("streams: a node's new blocks, reorgs and address activity delivered to your webhook, signed");
  streams
    .command('create')
    .description('stream a node (or pool) to your URL; its signing secret is shown once')
    .argument('<node>', TARGET_ARGUMENT)
    .requiredOption('--url <url>', 'where deliveries are POSTed: https, or http to an address the operator allows (e.g. loopback)')
    .addOption(
      new Option('--kind <kind>', 'blocks: every block and reorg; transactions: those touching --address')
        .choices(['blocks', 'transactions'])
        .default('blocks'),
    )
    .option('--address <address...>', 'a watched address (transactions); repeat for each')
    .option('--topic <topic...>', "eth: a watched contract's log matches only with one of these as topic 0; repeat for each")
    .addOption(new Option('--from-height <n>', 'backfill from this block (default: from the head)').argParser(nonNegativeInteger))
    .option('--name <name>', 'your label for it: 1-64 printable characters')
    .action(async (target: string, options: CreateOptions, command: Command) => {
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      const created = await cloud.streams.create({
        nodeId: POOL_ID.test(target) ? await resolvePoolId(cloud, target) : await resolveNodeId(cloud, target),
        url: options.url,
        kind: options.kind,
        ...(options.address ? { addresses: options.address } : {}),
        ...(options.topic ? { topics: options.topic } : {}),
        ...(options.fromHeight === undefined ? {} : { fromHeight: options.fromHeight }),
        ...(options.name === undefined ? {} : { name: options.name }),
      });
      if (ctx.output.json) return printJson(ctx.output, created);
      printStream(ctx, created);
      note(ctx.output, 'The secret is shown only now: keep it to check the x-cloud-signature of each delivery (cloud streams rotate-secret makes a new one).');
    });
  streams
    .command('list')
    .description('your streams, oldest first')
    .action(async (_options: unknown, command: Command) => {
      const ctx = contextOf(command);
      printList<Stream>(
        ctx.output,
        await ctx.cloud().streams.list(),
        [
          { key: 'id', header: 'ID' },
          { key: 'name', header: 'NAME' },
          { key: 'nodeId', header: 'NODE' },
          { key: 'kind', header: 'KIND' },
          { key: 'state', header: 'STATE' },
          { key: 'cursor', header: 'CURSOR', format: (cursor) => (cursor ? String((cursor as NonNullable<Stream['cursor']>).height) : '-') },
          { key: 'pendingEvents', header: 'PENDING' },
          { key: 'deadLetters', header: 'DEAD' },
          { key: 'url', header: 'URL' },
        ],
        'No streams. Create one with: cloud streams create <node> --url <url>',
      );
    });
  onStream(
    streams,
    contextOf,
    'info',
    'one stream: its state, cursor, queue, failures and last delivery',
    (cloud, id) => cloud.streams.get(id),
    printStream,
  ).alias('get');
  streams
    .command('update')
    .description('rename a stream or point it at another URL (checked as at creation)')
    .argument('<stream>', STREAM_ARGUMENT)
    .option('--name <name>', 'the new name')
    .option('--url <url>', 'the new URL')
    .action(async (idOrName: string, options: { name?: string; url?: string }, command: Command) => {
      if (options.name === undefined && options.url === undefined) throw new UsageError('give what to change: --name, --url or both');
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      const stream = await cloud.streams.update(await resolveStreamId(cloud, idOrName), options);
      return ctx.output.json ? printJson(ctx.output, stream) : printStream(ctx, stream);
    });
  onStream(streams, contextOf, 'pause', 'pause a stream: neither scanned nor delivered until resumed', (cloud, id) => cloud.streams.pause(id), printStream);
  onStream(streams, contextOf, 'resume', 'resume a paused stream where it stopped', (cloud, id) => cloud.streams.resume(id), printStream);
  onStream(
    streams,
    contextOf,
    'rotate-secret',
    'make a new signing secret, shown once',
    (cloud, id) => cloud.streams.rotateSecret(id),
    (ctx, stream) => {
      printStream(ctx, stream);
      note(ctx.output, 'The new secret is shown only now; deliveries from now on are signed with it.');
    },
  );
  onStream(
    streams,
    contextOf,
    'test',
    'send a signed test event to the URL now, and show how it went',
    (cloud, id) => cloud.streams.test(id),
    (ctx, attempt) => printAttempts(ctx, [attempt]),
  );
  withLimit(streams.command('deliveries').description('the delivery log, newest first')).action(
    async (idOrName: string, options: { limit?: number }, command: Command) => {
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      const attempts = await cloud.streams.deliveries(await resolveStreamId(cloud, idOrName), options.limit);
      return ctx.output.json ? printJson(ctx.output, attempts) : printAttempts(ctx, attempts);
    },
  );
  withLimit(streams.command('dead-letters').description('events parked after failing for the retry period, oldest first')).action(
    async (idOrName: string, options: { limit?: number }, command: Command) => {
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      printList(
        ctx.output,
        await cloud.streams.deadLetters(await resolveStreamId(cloud, idOrName), options.limit),
        [
          { key: 'seq', header: 'SEQ' },
          { key: 'id', header: 'EVENT' },
          { key: 'type', header: 'TYPE' },
          { key: 'height', header: 'HEIGHT' },
        ],
        'No dead letters.',
      );
    },
  );
  onStream(
    streams,
    contextOf,
    'replay',
    'deliver the dead letters again, with their ids, after what is pending',
    (cloud, id) => cloud.streams.replay(id),
    (ctx, { replayed }) => note(ctx.output, `${replayed} dead letter${replayed === 1 ? '' : 's'} put back at the end of the stream.`),
  );
  onStream(
    streams,
    contextOf,
    'remove',
    'delete a stream: nothing more is delivered',
    (cloud, id) => cloud.streams.remove(id),
    (ctx, { id }) => note(ctx.output, `Deleted ${id}.`),
  ).alias('delete');
}

/** A command taking one stream: calls the API, prints the answer as JSON with --json, else with `print`. */
function onStream<T>(
  streams: Command,
  contextOf: ContextOf,
  name: string,
  description: string,
  call: (cloud: CloudClient, id: string) => Promise<T>,
  print: (ctx: Context, answer: T) => void,
): Command {
  return streams
    .command(name)
    .description(description)
    .argument('<stream>', STREAM_ARGUMENT)
    .action(async (idOrName: string, _options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      const answer = await call(cloud, await resolveStreamId(cloud, idOrName));
      return ctx.output.json ? printJson(ctx.output, answer) : print(ctx, answer);
    });
}

function withLimit(command: Command): Command {
  return command
    .argument('<stream>', STREAM_ARGUMENT)
    .addOption(new Option('--limit <n>', 'at most this many (1-1000; default 100)').argParser(positiveInteger));
}

/** The id of the stream `idOrName` names: an id as given, else the one stream of yours with that name. */
async function resolveStreamId(cloud: CloudClient, idOrName: string): Promise<string> {
  if (STREAM_ID.test(idOrName)) return idOrName;
  const named = (await cloud.streams.list()).filter((stream) => stream.name === idOrName.trim());
  if (named.length === 1) return named[0]!.id;
  if (named.length > 1)
    throw new UsageError(
      `${named.length} of your streams are named ${JSON.stringify(idOrName.trim())}: give one of their ids (${named.map((each) => each.id).join(', ')})`,
    );
  throw new NotFoundError(404, 'NotFound', `no stream of yours has the id or name ${JSON.stringify(idOrName)} (cloud streams list shows them)`, 'streams');
}

function printStream(ctx: Context, stream: Stream): void {
  const { failing, lastDelivery } = stream;
  printRecord(ctx.output, [
    ['Id', stream.id],
    ['Name', stream.name],
    ['Node', stream.nodeId],
    ['Kind', stream.kind],
    ['URL', stream.url],
    ['Addresses', stream.kind === 'transactions' ? stream.addresses.join(', ') : undefined],
    ['Topics', stream.topics.length > 0 ? stream.topics.join(', ') : undefined],
    ['State', stream.state],
    ['From height', stream.fromHeight === null ? 'the head when it started' : String(stream.fromHeight)],
    ['Cursor', stream.cursor ? `${stream.cursor.height} ${stream.cursor.hash}` : 'not scanned yet'],
    ['Pending events', String(stream.pendingEvents)],
    ['Dead letters', String(stream.deadLetters)],
    [
      'Failing',
      failing ? `since ${failing.since}, ${failing.attempts} attempts, next ${failing.nextAttemptAt ?? 'when resumed'}: ${failing.lastError ?? ''}` : undefined,
    ],
    ['Last delivery', lastDelivery ? attemptWords(lastDelivery) : null],
    ['Created', stream.createdAt],
    ['Secret', stream.secret],
  ]);
}

function attemptWords(attempt: DeliveryAttempt): string {
  return `${attempt.at} ${attempt.outcome} ${attempt.statusCode ?? 'no answer'} in ${attempt.latencyMs} ms${attempt.error ? `: ${attempt.error}` : ''}`;
}

function printAttempts(ctx: Context, attempts: DeliveryAttempt[]): void {
  printList<DeliveryAttempt>(
    ctx.output,
    attempts,
    [
      { key: 'at', header: 'AT' },
      { key: 'outcome', header: 'OUTCOME' },
      { key: 'statusCode', header: 'STATUS' },
      { key: 'latencyMs', header: 'MS' },
      { key: 'firstSeq', header: 'SEQS', format: (_first, row) => (row.firstSeq === null ? '-' : `${row.firstSeq}-${row.lastSeq}`) },
      { key: 'attempt', header: 'ATTEMPT' },
      { key: 'error', header: 'ERROR' },
    ],
    'No deliveries yet.',
  );
}
