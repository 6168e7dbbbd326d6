import type { ProxyAddresses } from '@cloud/chains';
import type { NodeAccess, Outbox } from '@cloud/bus';
import type { Database } from '@cloud/db';
import { ConflictError, InvalidInputError } from '@cloud/http';
import type { NodesRepository } from '../data-access/nodes.repository';
import { lifecycleMessage } from './lifecycle-messages';
import { notFound } from './node-not-found';
import { toNodeView, type NodeView } from './node-view';

export interface NodeAccessDependencies {
  db: Database;
  nodes: NodesRepository;
  outbox: Outbox;
  clock: () => number;
  addresses: ProxyAddresses;
  /** The operator's rate per node (the node-proxy's PROXY_RATE_PER_SECOND): an owner may only go below it. */
  maxRatePerSecond: number;
  /** The operator's answer bound (the node-proxy's PROXY_MAX_ANSWER_BYTES): an owner may only go below it. */
  maxAnswerBytes: number;
}

/**
 * A node's access rules, set whole by its owner (`PUT .../access`). The change raises the
 * node's revision and announces the route (`node.access-changed`), which every proxy replica
 * applies as it arrives; a replica that starts later reads the rules with the routes.
 */
export class NodeAccessRules {
  constructor(private readonly deps: NodeAccessDependencies) {}

  async set(userId: string, id: string, access: NodeAccess): Promise<NodeView> {
    const { db, nodes, outbox, maxRatePerSecond, maxAnswerBytes } = this.deps;
    if (access.ratePerSecond !== null && access.ratePerSecond > maxRatePerSecond) {
      throw new InvalidInputError(`body.ratePerSecond: must be at most ${maxRatePerSecond}, the platform's rate per node`);
    }
    if (access.maxAnswerBytes !== null && access.maxAnswerBytes > maxAnswerBytes) {
      throw new InvalidInputError(`body.maxAnswerBytes: must be at most ${maxAnswerBytes}, the platform's answer bound`);
    }
    const node = await db.transaction(async (trx) => {
      const current = await nodes.findVisibleForUpdate(trx, userId, id);
      if (!current) throw notFound(id);
      const changed = await nodes.setRules(trx, id, { access }, new Date(this.deps.clock()));
      if (!changed) throw new ConflictError(`node ${id} is being deleted`);
      await outbox.add(trx, [lifecycleMessage('node.access-changed', changed)]);
      return changed;
    });
    return toNodeView(node, this.deps.addresses);
  }
}
