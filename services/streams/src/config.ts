import { z } from 'zod';
import { apiServiceEnvironment, loadConfig, port, positiveInt } from '@cloud/config';
import { nodeRpcKeyEnvironment } from '@cloud/node-rpc-auth';

/** Every variable the streams service reads; `.env.example` at the repository root documents them. */
export const streamsEnvironment = apiServiceEnvironment.extend(nodeRpcKeyEnvironment.shape).extend({
  STREAMS_PORT: port(3004),
  STREAMS_HOST: z.string().default('127.0.0.1'),
  /** The accounts service, whose JWKS verifies client tokens. */
  ACCOUNTS_URL: z.url().default('http://127.0.0.1:3001'),
  /** File of the key (base64 of 32 bytes) sealing streams' signing secrets at rest; unset: generated once as $DATA_DIR/keys/streams-secrets.key. */
  STREAMS_SECRET_KEY_FILE: z.string().min(1).optional(),
  /** Streams a user may have at once. */
  MAX_STREAMS_PER_USER: positiveInt(20),
  /** Addresses one `transactions` stream may watch. */
  STREAMS_MAX_ADDRESSES: positiveInt(100),
  /** Blocks below the head a stream may start from (`fromHeight`). */
  STREAMS_MAX_BACKFILL_BLOCKS: positiveInt(10_000),
  /**
   * Webhook targets allowed although they are not public addresses: a comma-separated list of
   * `loopback`, `private` (RFC 1918, unique local, CGNAT) and CIDR ranges. Empty: public
   * addresses only. `npm start` sets `loopback` when unset, so the walk can use a local receiver.
   */
  STREAMS_ALLOW_TARGETS: z.string().default(''),
  /** How often the head of each followed node is read. */
  STREAMS_HEAD_INTERVAL_MS: positiveInt(250),
  /** How long one call to a node may take. */
  STREAMS_NODE_TIMEOUT_MS: positiveInt(10_000),
  /** Blocks one scan reads before it commits their events and lets deliveries go. */
  STREAMS_SCAN_BLOCKS: positiveInt(20),
  /** Most events in one delivery (one POST). */
  STREAMS_BATCH_EVENTS: positiveInt(100),
  /** Most bytes of one delivery's body (a single larger event is sent alone). */
  STREAMS_BATCH_BYTES: positiveInt(1024 * 1024),
  /** How long the receiver may take to answer one delivery. */
  STREAMS_DELIVERY_TIMEOUT_MS: positiveInt(10_000),
  /** First retry after this long, doubling up to STREAMS_RETRY_MAX_MS. */
  STREAMS_RETRY_BASE_MS: positiveInt(1_000),
  STREAMS_RETRY_MAX_MS: positiveInt(10 * 60_000),
  /** A batch failing this long is parked as dead letters (the user may replay them) and the stream goes on. */
  STREAMS_RETRY_FOR_MS: positiveInt(24 * 3_600_000),
  /** How long a replica's claim on a stream lasts without renewal: another takes it over after. */
  STREAMS_LEASE_MS: positiveInt(15_000),
  /** Delivered events are kept this long (then deleted); dead letters until replayed or the stream is deleted. */
  STREAMS_KEEP_DELIVERED_MS: positiveInt(3_600_000),
  /** Names this replica in stream leases; unset: host name and process id. */
  STREAMS_INSTANCE_ID: z.string().min(1).max(128).optional(),
});

export type StreamsConfig = z.infer<typeof streamsEnvironment>;

export function loadStreamsConfig(env: NodeJS.ProcessEnv = process.env): StreamsConfig {
  return loadConfig(streamsEnvironment, env);
}
