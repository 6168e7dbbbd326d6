import type { NodeRoute } from '@cloud/bus';
import type { ValidatorImageId } from '@cloud/chains';

/** A validator's staking key as it is stored: AES-256-GCM ciphertext, and what decrypts it. */
export interface EncryptedKey {
  /** Names the key-encryption key it was sealed with, so that key can be rotated. */
  keyId: string;
  iv: Buffer;
  ciphertext: Buffer;
  authTag: Buffer;
}

/** The node's lifecycle state, as the nodes service last announced it (`node.*` messages). */
export type NodeState = NodeRoute['state'];

/**
 * A registration of the validator on the P-chain, as last read from its node. Kept because a
 * registration cannot be undone: once seen, deletion is refused until its end time even while
 * the node cannot be asked.
 */
export interface ObservedRegistration {
  txId: string;
  startTime: Date;
  endTime: Date;
  /** The validator's own stake, nAVAX. */
  stake: string;
  observedAt: Date;
}

export interface ValidatorRecord {
  /** `node-<uuid>`: the id of the validator and of its node at the nodes service. */
  id: string;
  userId: string;
  chain: string;
  network: string;
  image: ValidatorImageId;
  /** `NodeID-…`, derived from the staking certificate. */
  chainNodeId: string;
  certificatePem: string;
  stakingKey: EncryptedKey;
  nodeUser: string;
  nodePasswordHash: string;
  nodeState: NodeState;
  nodeStateReason: string | null;
  /** The node runs on a private dev chain (the nodes service's route says `dev`); null: not announced yet. */
  nodeDev: boolean | null;
  /** Revision of the node route the state was taken from; -1 before any. */
  nodeRevision: number;
  /** Where the node's RPC answers inside the platform while it runs; null otherwise. */
  upstreamUrl: string | null;
  registration: ObservedRegistration | null;
  createdAt: Date;
  updatedAt: Date;
}
