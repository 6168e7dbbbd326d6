import type { NodeAccess } from '@cloud/bus';
import type { ImageId } from '@cloud/chains';
import type { NodeCredential } from './node-record';

/**
 * A pool: one endpoint (its own credentials, URL tokens and access rules, as a node has them) over
 * several of its owner's nodes of one image and dev flag. A deleted pool is kept for audit but is
 * gone from the API (404) and from the routes.
 */
export interface PoolRecord {
  /** `pool-<uuid>` */
  id: string;
  userId: string;
  name: string;
  image: ImageId;
  chain: string;
  dev: boolean;
  /** A member more than this many blocks behind the best member's head gets no calls. */
  maxLagBlocks: number;
  /** Its members' node ids, in the order the owner gave them (a deleted node has left). */
  members: string[];
  /** As a node's: Basic credentials and URL tokens, oldest first. */
  credentials: NodeCredential[];
  access: NodeAccess | null;
  revision: number;
  deleted: boolean;
  createdAt: Date;
  updatedAt: Date;
}
