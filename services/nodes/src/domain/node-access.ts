import type { NodeAccess } from '@cloud/bus';
import type { Database } from '@cloud/db';
import { ConflictError, InvalidInputError } from '@cloud/http';
import type { CredentialedEndpoints } from './credentialed-endpoints';
import { NO_ACCESS_RULES, type NodeView } from './node-view';
import type { PoolView } from './pool-view';

export interface NodeAccessDependencies {
  db: Database;
  /** Nodes' and pools' rules, by the id's kind. */
  endpoints: CredentialedEndpoints;
  clock: () => number;
  /** The operator's rate per node (the node-proxy's PROXY_RATE_PER_SECOND): an owner may only go below it. */
  maxRatePerSecond: number;
  /** The operator's answer bound (the node-proxy's PROXY_MAX_ANSWER_BYTES): an owner may only go below it. */
  maxAnswerBytes: number;
}

/**
 * A node's (or a pool's) access rules, set whole by its owner (`PUT .../access`). The change raises
 * the revision and announces the route (`node.access-changed`, `pool.changed`), which every proxy
 * replica applies as it arrives; a replica that starts later reads the rules with the routes.
 */
export class NodeAccessRules {
  constructor(private readonly deps: NodeAccessDependencies) {}

  /** The rules; empty lists and null limits when none are set. */
  async get(userId: string, id: string): Promise<NodeAccess> {
    const store = this.deps.endpoints.of(id);
    const found = await store.find(userId, id);
    if (!found) throw store.notFound(id);
    return found.access ?? NO_ACCESS_RULES;
  }

  async set(userId: string, id: string, access: NodeAccess): Promise<NodeView | PoolView> {
    const { db, endpoints, maxRatePerSecond, maxAnswerBytes } = this.deps;
    if (access.ratePerSecond !== null && access.ratePerSecond > maxRatePerSecond) {
      throw new InvalidInputError(`body.ratePerSecond: must be at most ${maxRatePerSecond}, the platform's rate per node`);
    }
    if (access.maxAnswerBytes !== null && access.maxAnswerBytes > maxAnswerBytes) {
      throw new InvalidInputError(`body.maxAnswerBytes: must be at most ${maxAnswerBytes}, the platform's answer bound`);
    }
    const store = endpoints.of(id);
    const changed = await db.transaction(async (trx) => {
      const current = await store.findForUpdate(trx, userId, id);
      if (!current) throw store.notFound(id);
      const written = await store.setRules(trx, id, { access }, new Date(this.deps.clock()));
      if (!written) throw new ConflictError(`${store.noun} ${id} is being deleted`);
      return written;
    });
    return changed.view();
  }
}
