import type { ImageId } from '@cloud/chains';
import type { SyncStatus } from '../data-access/node-record';

/**
 * A provisioning driver runs nodes somewhere: `local` as child processes on this machine,
 * `kubernetes` as StatefulSets in a cluster. The reconciler is its only caller; it decides which
 * nodes should exist (from the database) and uses these calls to make it so. Every call is
 * idempotent, because the reconciler repeats itself after a crash or a lost lease.
 */
export interface NodeDriver {
  readonly name: 'local' | 'kubernetes';
  /** One option per image this driver can run, naming the software it really runs. */
  chains(): Promise<ChainOption[]>;
  /**
   * Makes the node run. Starts it when absent; adopts (or restarts) one an earlier process of
   * this service left behind, never running two; does nothing when it already runs here.
   * Rejects with `ImageUnavailableError` when nothing here can run the node's image.
   */
  ensure(node: NodeSpec): Promise<void>;
  /** Where the node stands now. */
  status(nodeId: string): Promise<NodeStatus>;
  /** Another instance holds the node's lease now: stop running it from here and keep its data, so that instance takes it over. */
  release(nodeId: string): Promise<void>;
  /**
   * Stops the node, keeping its data, credentials and objects: it runs nowhere until `ensure`
   * starts it again (with the spec's resource class then). For a node the user stopped, restarts
   * or resizes, and for one the driver reported `failed` (no crash loop spending the machine or
   * the cluster). Succeeds for a node that is gone or already stopped.
   */
  stop(nodeId: string): Promise<void>;
  /** Stops the node and deletes its data. Succeeds for a node that does not exist. */
  destroy(nodeId: string): Promise<void>;
  /** The last `lines` lines of the node's log, oldest first; [] when there is none. */
  logs(nodeId: string, lines: number): Promise<string[]>;
  /**
   * Stops driving: the nodes keep running where they are, for the next instance to take over
   * (only a node's owner or its deletion stops it). With `stopNodes` (the local driver) they are
   * stopped, their data kept.
   */
  close(options?: { stopNodes?: boolean }): Promise<void>;
}

/** What a driver needs to know to run one node. */
export interface NodeSpec {
  /** `node-<uuid>`; also names the node's data directory, process or StatefulSet. */
  id: string;
  image: ImageId;
  /** A larger/faster node: more cache (local) or more CPU and memory (kubernetes). */
  large: boolean;
  /**
   * Run it on a private dev chain (regtest, anvil, the dev chain) rather than the image's own
   * network: fixed when the node is created (its chain option's `dev`), so a node keeps its chain.
   */
  dev: boolean;
  /** Keep a transaction index (Bitcoin family, `-txindex`); never with pruning. */
  txindex: boolean;
  /** The owner's user id, which a driver may label the node's objects with (kubernetes). */
  userId?: string;
  /**
   * A validator node's staking TLS certificate and key, which it identifies itself with on the
   * staking chain; present for validator images only. Fetched from the staking service when
   * called, so a driver calls it only when it (re)creates the node, and keeps the key nowhere but
   * where the node software needs it.
   */
  stakingTls?: () => Promise<StakingTls>;
}

export interface StakingTls {
  certificatePem: string;
  keyPem: string;
}

/** An element of `GET /chains`. */
export interface ChainOption {
  image: ImageId;
  chain: string;
  network: string;
  /** `<software name>-<version>`, read from the binary or package that runs it. */
  software: string;
  /** Its nodes run on a private dev chain (regtest, anvil, the dev chain), not on `network`. */
  dev: boolean;
  /** Its nodes keep only recent blocks (so cannot have a transaction index). */
  pruned: boolean;
}

export type NodeStatus =
  /** Nothing runs for this node here (never started, stopped, or gone). */
  | { state: 'absent' }
  /** Started (or restarting after a crash); its RPC does not answer yet. */
  | { state: 'starting' }
  /**
   * Its RPC answers at `endpoint`, but only that it is loading (Bitcoin Core's -28 while it loads or
   * verifies its blocks, as after a restart): up, not serving yet. `reason` is what it said.
   */
  | { state: 'loading'; endpoint: InternalEndpoint; reason: string }
  /** Its RPC answers at `endpoint`; `sync` is how far it is with its network, when the driver can ask it. */
  | { state: 'running'; endpoint: InternalEndpoint; sync?: SyncStatus }
  /** The driver gave up (the software keeps failing to start); `reason` says why, for the user. */
  | { state: 'failed'; reason: string };

/**
 * Where the node-proxy reaches a node. Every driver gives each node the RPC user `NODE_RPC_USER`
 * with the password `nodeRpcPassword(key, nodeId)` (`@cloud/node-rpc-auth`, key NODE_RPC_KEY_FILE),
 * which is how the proxy logs in: it derives them itself, so no credential leaves the driver.
 */
export interface InternalEndpoint {
  /** Base URL of the node's JSON-RPC (and REST and WebSocket), e.g. `http://127.0.0.1:40123`. */
  url: string;
}

/** The driver cannot run this image here (its software is not installed): the node fails, with this message as its reason. */
export class ImageUnavailableError extends Error {}
