import type { ImageId } from '@cloud/chains';
import type { Logger } from '@cloud/logging';

/** Explicit paths of the node software (ANVIL_PATH, ...); what is not given is looked for (see `software.ts`). */
export interface LocalBinaries {
  anvil?: string;
  litecoind?: string;
  /** Bitcoin Core's; btc images run on the dev chain without it. */
  bitcoind?: string;
  /** Bitcoin Cash Node's; bch images run on the dev chain without it. */
  bchnBitcoind?: string;
  /** avalanchego; validator nodes run on the dev chain's avalanche mode without it. */
  avalanchego?: string;
}

export interface RestartPolicy {
  /** Delay before the first restart; doubled for each further one. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Consecutive exits before the node ever answered, after which it is `failed`. */
  failuresBeforeGivingUp?: number;
}

/** How a running node is watched: a node whose RPC stops answering is hung, and is restarted. */
export interface LivenessPolicy {
  intervalMs?: number;
  /** Consecutive unanswered probes after which the process is killed (and so restarted). */
  failuresBeforeRestart?: number;
}

export interface LocalDriverOptions {
  /** Nodes live in `<rootDir>/<nodeId>/`. */
  rootDir: string;
  /** Derives each node's RPC password (`nodeRpcPassword`); the node-proxy holds the same key. */
  secretKey: Buffer;
  logger: Logger;
  /** A block every this many seconds, so chains move. */
  blockIntervalSeconds: number;
  /** anvil's `--chain-id`. */
  ethChainId: number;
  binaries: LocalBinaries;
  /** `dev` (default): Bitcoin-family daemons run regtest; `public`: the network their image names (LOCAL_NETWORKS). */
  networks?: 'dev' | 'public';
  /** -prune (MB) of nodes on a public network; 0 (default): none (LOCAL_PRUNE_MB). */
  pruneMb?: number;
  /** The only peers nodes of an image connect to ([] for none); an image not here finds its own (`<IMAGE>_PEERS`). */
  peers?: Partial<Record<ImageId, string[]>>;
  restart?: RestartPolicy;
  liveness?: LivenessPolicy;
  /** After SIGTERM, how long a node gets to stop before SIGKILL. */
  stopTimeoutMs?: number;
  /** `node.log` is rotated to `node.log.1` beyond this size. */
  logMaxBytes?: number;
}

/** The options with every default filled in. */
export interface LocalSettings extends Required<LocalDriverOptions> {
  restart: Required<RestartPolicy>;
  liveness: Required<LivenessPolicy>;
}

export function localSettings(options: LocalDriverOptions): LocalSettings {
  return {
    ...options,
    networks: options.networks ?? 'dev',
    pruneMb: options.pruneMb ?? 0,
    peers: options.peers ?? {},
    restart: { initialDelayMs: 500, maxDelayMs: 30_000, failuresBeforeGivingUp: 5, ...options.restart },
    liveness: { intervalMs: 5_000, failuresBeforeRestart: 3, ...options.liveness },
    // Short enough that stopping the service (npm start's Ctrl-C) stays within 10 s.
    stopTimeoutMs: options.stopTimeoutMs ?? 5_000,
    logMaxBytes: options.logMaxBytes ?? 10 * 1024 * 1024,
  };
}
