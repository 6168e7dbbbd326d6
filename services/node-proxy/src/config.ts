import path from 'node:path';
import { z } from 'zod';
import { booleanFlag, commonEnvironment, DEFAULT_MAX_ANSWER_BYTES, loadConfig, nodeAddressEnvironment, port, positiveInt } from '@cloud/config';
import { nodeRpcKeyEnvironment } from '@cloud/node-rpc-auth';
import { DEFAULT_MAX_DEPTH } from './json-rpc/json-text';

/** The rule files shipped with the service (`filters/<family>.json`). */
export const DEFAULT_FILTER_DIR = path.resolve(__dirname, '..', 'filters');

/** Every variable the node-proxy reads; `.env.example` at the repository root documents them. */
export const proxyEnvironment = commonEnvironment
  .extend(nodeRpcKeyEnvironment.shape)
  .extend(nodeAddressEnvironment.shape)
  .extend({
    /** Where the chain ports listen (runtime contract). */
    PROXY_HOST: z.string().default('127.0.0.1'),
    /** The accounts service, whose JWKS verifies the client tokens of `jwt` nodes. */
    ACCOUNTS_URL: z.url().default('http://127.0.0.1:3001'),
    /** PEM certificate (chain) and key for `*.<NODE_DOMAIN>`; unset: a self-signed one made once under $DATA_DIR/tls. */
    PROXY_TLS_CERT: z.string().min(1).optional(),
    PROXY_TLS_KEY: z.string().min(1).optional(),

    // --- ports (runtime contract, "Ports and addresses"); 0 picks a free port ---
    PROXY_BTC_PORT: port(8332),
    PROXY_BTC_TESTNET_PORT: port(18332),
    PROXY_LTC_PORT: port(9332),
    PROXY_ETH_PORT: port(8545),
    PROXY_AVALANCHE_PORT: port(9650),
    /** The management interface (`/status`, `/logs`) of every node. */
    PROXY_MANAGEMENT_PORT: port(8080),
    /** Prometheus `/metrics`, `/healthz`, `/readyz`: for operators, never exposed to users. */
    PROXY_ADMIN_PORT: port(9464),
    PROXY_ADMIN_HOST: z.string().default('127.0.0.1'),

    // --- limits ---
    /** Largest request body; larger ones get 413. */
    PROXY_BODY_LIMIT_BYTES: positiveInt(1024 * 1024),
    /**
     * Largest answer passed on from a node (an owner may set a lower one per node, `maxAnswerBytes`);
     * a larger one is refused: a JSON-RPC error -32005, 502 AnswerTooLarge on a REST path, close 1009
     * on a WebSocket. The nodes service's NODE_MAX_ANSWER_BYTES must equal it.
     */
    PROXY_MAX_ANSWER_BYTES: positiveInt(DEFAULT_MAX_ANSWER_BYTES),
    /** Most calls in one JSON-RPC batch; longer batches get 413. */
    PROXY_MAX_BATCH: positiveInt(100),
    /** Per node: requests per second sustained, and the burst above it (token bucket); over it, 429. */
    PROXY_RATE_PER_SECOND: positiveInt(100),
    PROXY_RATE_BURST: positiveInt(200),
    /** Most levels of `[`/`{` nesting in a JSON-RPC body; deeper ones get -32600 (400) before any parsing. */
    PROXY_MAX_JSON_DEPTH: positiveInt(DEFAULT_MAX_DEPTH),
    /**
     * Per WebSocket: the most bytes the proxy holds for it (answers the client has not read, calls
     * the node has not taken). Over a 16 KiB high-water mark both sides are paused; past this bound
     * the socket is closed with 1008.
     */
    PROXY_WS_MAX_BUFFERED_BYTES: positiveInt(4 * 1024 * 1024),
    /** Open WebSockets per node (per replica); one more gets 429 on upgrade. */
    PROXY_WS_PER_NODE: positiveInt(50),
    /** Wrong credentials for a node from one client address: this many per window, then 429 until the window ends. */
    PROXY_AUTH_FAILURES: positiveInt(10),
    PROXY_AUTH_FAILURE_WINDOW_MS: positiveInt(60_000),
    /** (node, address) pairs whose failures are remembered; past it the oldest is forgotten, so guessing cannot grow memory. */
    PROXY_AUTH_FAILURE_ENTRIES: positiveInt(10_000),
    /** The client address is the last `X-Forwarded-For` entry (the one the ingress in front added), not the peer's. */
    TRUST_PROXY: booleanFlag(false),
    /** A node that has not answered in this long gets the caller a 504. */
    PROXY_UPSTREAM_TIMEOUT_MS: positiveInt(30_000),
    /**
     * Folder of the operator's own method rule files (every `*.json` in it, each naming its family),
     * read on top of the shipped ones: what they allow is allowed, what they refuse is refused.
     * Unset: the shipped rules alone.
     */
    PROXY_FILTER_DIR: z.string().min(1).optional(),

    // --- processes ---
    /**
     * Proxy worker processes sharing the listening ports (main.ts only; the all-in-one `npm start`
     * always runs one, in-process). Unset: the cores this process may use (os.availableParallelism).
     */
    PROXY_WORKERS: z.coerce.number().int().min(1).max(256).optional(),

    // --- routing and usage ---
    /** Names this replica in usage messages; unset: a random id per process. */
    PROXY_INSTANCE_ID: z.string().min(1).max(128).optional(),
    /**
     * How often each replica publishes the usage it counted: a user sees a call this soon after
     * making it (plus the console's read). An interval without calls publishes nothing; one with
     * calls is one message for all its nodes (services/node-proxy/README.md, Usage, for the cost).
     */
    PROXY_USAGE_INTERVAL_MS: positiveInt(5_000),
    /** A full reload of the routing table this often, besides the one at each (re)connection. */
    PROXY_RESYNC_INTERVAL_MS: positiveInt(300_000),
    // --- pools and cache (issue 31) ---
    /** How often the head of a node in use (called within PROXY_HEAD_IDLE_MS, or a pool's member) is read. */
    PROXY_HEAD_INTERVAL_MS: positiveInt(1_000),
    /** A node not called for this long is no longer followed (a pool's members always are). */
    PROXY_HEAD_IDLE_MS: positiveInt(60_000),
    /** The answer cache's bound, in bytes, for all endpoints together; 0: no cache and no head served by the proxy. */
    PROXY_CACHE_BYTES: z.coerce
      .number()
      .int()
      .min(0)
      .default(64 * 1024 * 1024),
    /** Blocks below the head after which a Bitcoin-family block is taken as final (its answers cached). */
    PROXY_FINALITY_BLOCKS_BITCOIN: positiveInt(6),
    /** The same for an Ethereum node (two epochs of 32 slots). */
    PROXY_FINALITY_BLOCKS_ETHEREUM: positiveInt(64),
    /** The same on a private dev chain (regtest, anvil): reorgs there are made by hand, and seen. */
    PROXY_FINALITY_BLOCKS_DEV: positiveInt(2),
    /** A pool member's failures in a row that bench it (circuit breaker); it is probed back by its head reads. */
    PROXY_POOL_FAILURES_TO_BENCH: positiveInt(3),
    /** How long a benched member stays out before a successful head read may bring it back. */
    PROXY_POOL_BENCH_MS: positiveInt(5_000),
    /** Serve Basic-authenticated calls whose Host is not a node address (an IP, `localhost`) by their node user. */
    PROXY_ROUTE_BY_NODE_USER: booleanFlag(true),
  });

export type ProxyConfig = z.infer<typeof proxyEnvironment>;

export function loadProxyConfig(env: NodeJS.ProcessEnv = process.env): ProxyConfig {
  return loadConfig(proxyEnvironment, env);
}
