import type { ImageId } from '@cloud/chains';

/**
 * A node's lifecycle: `provisioning` → `running`, or `failed` when the driver gives up; a delete
 * request makes any of them `deleting`, and the reconciler makes it `deleted` once the driver has
 * destroyed it. A deleted node is kept for audit but is gone from the API (404).
 */
export type NodeState = 'provisioning' | 'running' | 'failed' | 'deleting' | 'deleted';

/** States that count towards a user's node limit. */
export const LIVE_STATES: readonly NodeState[] = ['provisioning', 'running', 'failed'];

/** States in which the driver has work to do, so an instance must own the node. */
export const DRIVEN_STATES: readonly NodeState[] = ['provisioning', 'running', 'deleting'];

export interface NodeRecord {
  id: string;
  userId: string;
  image: ImageId;
  large: boolean;
  jwt: boolean;
  software: string;
  state: NodeState;
  /** Why the node failed; null otherwise. */
  stateReason: string | null;
  nodeUser: string | null;
  nodePasswordHash: string | null;
  /** Base URL of the node's RPC inside the platform while it runs (the driver's endpoint); null otherwise. */
  upstreamUrl: string | null;
  revision: number;
  createdAt: Date;
  updatedAt: Date;
}
