import type { NodeAccess } from '@cloud/bus';
import type { ImageId } from '@cloud/chains';

/**
 * A node's lifecycle: `provisioning` → `running`, or `failed` when the driver gives up; a node
 * that answers but is still catching up with its network is `syncing` in between (forwarded to,
 * as a running node is). A stop request makes it `stopping`, and the reconciler makes it
 * `stopped` once the driver has stopped it (data kept); a start makes a stopped or failed node
 * `provisioning` again; a restart or a resize goes `stopping` → `provisioning`. A delete request
 * makes any of them `deleting`, and the reconciler makes it `deleted` once the driver has
 * destroyed it. A deleted node is kept for audit but is gone from the API (404).
 */
export type NodeState = 'provisioning' | 'syncing' | 'running' | 'failed' | 'stopping' | 'stopped' | 'deleting' | 'deleted';

/** States that count towards a user's node limit: a stopped node keeps its data, so it counts. */
export const LIVE_STATES: readonly NodeState[] = ['provisioning', 'syncing', 'running', 'failed', 'stopping', 'stopped'];

/** States in which the driver has work to do, so an instance must own the node. */
export const DRIVEN_STATES: readonly NodeState[] = ['provisioning', 'syncing', 'running', 'stopping', 'deleting'];

/** States in which the node runs, or is being brought up: what stop, restart and resize act on. */
export const STARTED_STATES: readonly NodeState[] = ['provisioning', 'syncing', 'running'];

/** States in which the node answers calls at its upstream. */
export const ANSWERING_STATES: readonly NodeState[] = ['syncing', 'running'];

export interface NodeRecord {
  id: string;
  /** Its owner's label for it (user data: kept out of metrics and info logs); null: none given. */
  name: string | null;
  userId: string;
  image: ImageId;
  large: boolean;
  jwt: boolean;
  /** Runs on a private dev chain (regtest, anvil, the dev chain) rather than the image's network. */
  dev: boolean;
  /** Keeps a transaction index (Bitcoin family): getrawtransaction finds any transaction. */
  txindex: boolean;
  software: string;
  state: NodeState;
  /** Why the node failed; null otherwise. */
  stateReason: string | null;
  /** A `stopping` node that starts again once stopped (a restart, or a resize of a running node). */
  startAfterStop: boolean;
  /** Its credentials (Basic and URL tokens), oldest first (the first Basic one is what `basic` announces); empty for a jwt node. */
  credentials: NodeCredential[];
  /** Its owner's access rules; null: none set. */
  access: NodeAccess | null;
  /** Base URL of the node's RPC inside the platform while it runs (the driver's endpoint); null otherwise. */
  upstreamUrl: string | null;
  revision: number;
  /** What the node last reported of its sync with its network; null before it first answered. */
  sync: SyncStatus | null;
  createdAt: Date;
  updatedAt: Date;
}

/** How far a node is with its network, as the node itself reports it. */
export interface SyncStatus {
  /** Its chain's height (Bitcoin: blocks; eth: the current block; avalanche: null, it has no single height). */
  height: number | null;
  /** The best height it knows of: its best header, or the network tip it syncs towards; null when it does not say. */
  bestKnownHeight: number | null;
  /** From 0 to 1. */
  progress: number;
  /** Connected peers; null when the software does not say. */
  peers: number | null;
  /** Still in initial block download (or bootstrapping). */
  syncing: boolean;
  /** When the node was asked (stored when the reading changes, and at least every 30 s). */
  checkedAt: Date;
}

/** What a credential is: a Basic user name and password, or a URL token (`https://<proxy>:<port>/<token>`). */
export type CredentialKind = 'basic' | 'token';

/** One named Basic credential of a node: the password itself is shown once and never stored. */
export interface BasicNodeCredential {
  kind: 'basic';
  id: string;
  name: string;
  user: string;
  /** Hex SHA-256 of the password: what the node-proxy checks. */
  passwordSha256: string;
  createdAt: string;
}

/** One named URL token of a node: the token itself (`nt_…`) is shown once and never stored. */
export interface TokenNodeCredential {
  kind: 'token';
  id: string;
  name: string;
  /** Hex SHA-256 of the token: what the node-proxy routes by. */
  tokenSha256: string;
  createdAt: string;
}

/**
 * A node's credential of either kind. Stored in the node row's `credentials` (jsonb); a Basic
 * credential stored before tokens existed has no `kind` (the repository reads it as `basic`).
 */
export type NodeCredential = BasicNodeCredential | TokenNodeCredential;
