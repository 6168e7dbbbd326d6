import { z } from 'zod';
import { idOf } from '@cloud/http';
import { STREAM_KINDS } from '../../domain/stream';

// Request and response shapes of the streams API; the same schemas validate input and build the
// OpenAPI document.

export const STREAM_NAME_MAX_LENGTH = 64;
/** The most addresses a request may list (the operator's STREAMS_MAX_ADDRESSES may allow fewer). */
const ADDRESSES_MAX = 1000;
const TOPICS_MAX = 100;

// Control characters (line breaks, tabs), line and paragraph separators, invisible format
// characters (except the zero-width joiner of emoji sequences), private-use, unassigned and lone
// surrogate code points: as a node's name.
const UNPRINTABLE = /(?!\u200d)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}]/u;

const streamName = z
  .string({ error: 'must be a string' })
  .trim()
  .refine((name) => name.length > 0, { error: 'must not be empty (or only spaces)', abort: true })
  .refine((name) => [...name].length <= STREAM_NAME_MAX_LENGTH, { error: `must be at most ${STREAM_NAME_MAX_LENGTH} characters`, abort: true })
  .refine((name) => !UNPRINTABLE.test(name), { error: 'must be printable: no line breaks, tabs, control or invisible formatting characters' })
  .meta({
    description: `your label for the stream: 1 to ${STREAM_NAME_MAX_LENGTH} printable characters, trimmed; default "<kind> of <nodeId>"`,
    example: 'payments-blocks',
    minLength: 1,
    maxLength: STREAM_NAME_MAX_LENGTH,
  });

const url = z
  .string({ error: 'must be a URL' })
  .max(2048, 'must be at most 2048 characters')
  .refine((text) => URL.canParse(text), { error: 'must be an absolute URL' })
  .meta({
    description:
      'where deliveries are POSTed: https, or http to an address the operator allows (STREAMS_ALLOW_TARGETS, e.g. loopback); URLs resolving to loopback, private, link-local or metadata addresses are refused unless allowed; redirects are not followed',
    example: 'https://hooks.example.com/chain-events',
    maxLength: 2048,
  });

const nodeOrPoolId = z
  .union([idOf('node'), idOf('pool')], { error: 'must be an id of the form node-<uuid> or pool-<uuid>' })
  .meta({ description: 'the node or pool of yours to follow (an Ethereum- or Bitcoin-family one)', example: 'node-0f8e2c4a-5b1d-4e7f-9a3c-2d6b8e1f4a70' });

export const createStreamBody = z
  .strictObject({
    nodeId: nodeOrPoolId,
    name: streamName.optional(),
    kind: z
      .enum(STREAM_KINDS, { error: `must be one of ${STREAM_KINDS.join(', ')}` })
      .default('blocks')
      .meta({
        description:
          'blocks: every block header, and a reorg event when blocks are replaced; transactions: transactions touching `addresses` (and reorg events). Default blocks',
      }),
    url,
    addresses: z
      .array(z.string({ error: 'must be a string' }).min(1).max(128), { error: 'must be a list of addresses' })
      .max(ADDRESSES_MAX, `must list at most ${ADDRESSES_MAX} addresses`)
      .optional()
      .meta({
        description:
          'transactions streams (required, at least one): eth 0x addresses (from, to, or the contract of a log); Bitcoin family: addresses paid by an output or spent by an input',
      }),
    topics: z
      .array(z.string({ error: 'must be a string' }).max(66), { error: 'must be a list of topics' })
      .max(TOPICS_MAX, `must list at most ${TOPICS_MAX} topics`)
      .optional()
      .meta({ description: "eth transactions streams: a watched contract's log matches only with one of these as topic 0 (0x + 64 hex); none: any" }),
    fromHeight: z.number({ error: 'must be a whole number' }).int('must be a whole number').min(0, 'must be at least 0').nullable().optional().meta({
      description: "backfill from this block (at most STREAMS_MAX_BACKFILL_BLOCKS below the head); none: from the node's head when the stream starts",
    }),
  })
  .meta({ id: 'CreateStreamRequest' });

export const updateStreamBody = z
  .strictObject({ name: streamName.optional(), url: url.optional() })
  .refine((body) => body.name !== undefined || body.url !== undefined, { error: 'give name, url or both' })
  .meta({ id: 'UpdateStreamRequest' });

export const streamParams = z.object({ streamId: idOf('stream') });

export const limitQuery = z.strictObject({
  limit: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1)
    .max(1000)
    .default(100)
    .meta({ description: 'at most this many (default 100)' }),
});

const isoTime = z.string().meta({ description: 'ISO 8601 UTC' });

export const deliveryAttemptSchema = z
  .object({
    deliveryId: z.string().meta({ description: 'dlv-<uuid>, also sent as x-cloud-delivery' }),
    attempt: z.number().int().meta({ description: "1 for the events' first try, then 2, 3, …" }),
    firstSeq: z.number().int().nullable().meta({ description: 'the first event of the batch; null for a test delivery' }),
    lastSeq: z.number().int().nullable(),
    events: z.number().int(),
    outcome: z.enum(['delivered', 'failed', 'parked', 'test']).meta({
      description:
        'delivered: a 2xx answer; failed: any other answer, a timeout, a refused target or a network error (retried); parked: failed for the retry period, now dead letters; test: a test delivery',
    }),
    statusCode: z.number().int().nullable().meta({ description: "the receiver's HTTP status; null when it did not answer" }),
    latencyMs: z.number().int(),
    error: z.string().nullable().meta({ description: "why it failed (with the start of the receiver's answer); null when delivered" }),
    at: isoTime,
  })
  .meta({ id: 'DeliveryAttempt' });

export const streamSchema = z
  .object({
    id: z.string().meta({ example: 'stream-0f8e2c4a-5b1d-4e7f-9a3c-2d6b8e1f4a70' }),
    name: z.string(),
    nodeId: z.string().meta({ description: 'the node or pool followed' }),
    kind: z.enum(STREAM_KINDS),
    url: z.string(),
    addresses: z.array(z.string()).meta({ description: 'watched addresses (eth: lower-case)' }),
    topics: z.array(z.string()),
    state: z.enum(['active', 'paused']),
    fromHeight: z.number().int().nullable().meta({ description: 'the first block asked for; null: the head when it started' }),
    cursor: z
      .object({ height: z.number().int(), hash: z.string() })
      .nullable()
      .meta({ description: 'the last block scanned (its events are queued or delivered); null before the first scan' }),
    pendingEvents: z.number().int().meta({ description: 'events found and not yet delivered' }),
    deadLetters: z.number().int().meta({ description: 'events parked after failing for the retry period; replay them with POST …/dead-letters/replay' }),
    failing: z
      .object({ since: isoTime, attempts: z.number().int(), nextAttemptAt: isoTime.nullable(), lastError: z.string().nullable() })
      .nullable()
      .meta({ description: 'the pending batch keeps failing: since when, how many attempts, the next one; null while deliveries succeed' }),
    lastDelivery: deliveryAttemptSchema.nullable(),
    createdAt: isoTime,
    secret: z.string().optional().meta({
      description: 'the signing secret (whsec_…): only in the answers that create or rotate it; deliveries carry x-cloud-signature made with it',
    }),
  })
  .meta({ id: 'Stream', description: "a subscription to a node's blocks or address activity, delivered to a webhook" });

export const deadLetterSchema = z
  .object({ id: z.string().meta({ description: 'evt-<uuid>, kept on replay' }), seq: z.number().int(), type: z.string() })
  .loose()
  .meta({ id: 'StreamEvent', description: 'an event as delivered (block, reorg, transaction or test): see the service README for each type' });

export const replayedSchema = z
  .object({ replayed: z.number().int().meta({ description: 'dead letters put back at the end of the stream' }) })
  .meta({ id: 'Replayed' });

export const deletedStreamSchema = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: 'DeletedStream' });
