import type { NodeAccess, Outbox } from '@cloud/bus';
import type { NodeEndpoints, ProxyAddresses } from '@cloud/chains';
import type { Executor } from '@cloud/db';
import { NotFoundError } from '@cloud/http';
import type { NodeCredential, NodeRecord } from '../data-access/node-record';
import type { NodesRepository } from '../data-access/nodes.repository';
import type { PoolRecord } from '../data-access/pool-record';
import type { PoolsRepository } from '../data-access/pools.repository';
import { lifecycleMessage } from './lifecycle-messages';
import { notFound } from './node-not-found';
import { toNodeView, type NodeView } from './node-view';
import { poolMessage } from './pool-messages';
import { poolEndpoints, poolViews, type PoolView } from './pool-view';

/**
 * What carries credentials, URL tokens and access rules of its own: a node, or a pool (issue 31).
 * Both keep them on their row in one shape and announce them in their route, so the same use cases
 * (`NodeCredentials`, `NodeAccessRules`) serve `/users/me/nodes/{id}/…` and `/users/me/pools/{id}/…`.
 */
export interface CredentialedEndpoint {
  id: string;
  /** Takes its owner's client access tokens instead: no credentials of its own (a jwt node). */
  jwt: boolean;
  credentials: NodeCredential[];
  access: NodeAccess | null;
  /** Where clients reach it: a new URL token's addresses are these with the token. */
  endpoints: NodeEndpoints;
  /** Its record as the API shows it (what `PUT …/access` answers). */
  view(): Promise<NodeView | PoolView>;
}

/** Where one kind of endpoint is read, locked, written and announced. */
export interface CredentialedStore {
  /** `node` or `pool`, as error messages name it. */
  noun: 'node' | 'pool';
  notFound(id: string): NotFoundError;
  find(userId: string, id: string): Promise<CredentialedEndpoint | undefined>;
  /** The user's endpoint locked until the transaction ends (its rules are read, checked and written back whole). */
  findForUpdate(trx: Executor, userId: string, id: string): Promise<CredentialedEndpoint | undefined>;
  /** Writes the rules and adds the new route's announcement to the outbox, in `trx`; undefined when the endpoint is being deleted. */
  setRules(trx: Executor, id: string, rules: { credentials?: NodeCredential[]; access?: NodeAccess }, at: Date): Promise<CredentialedEndpoint | undefined>;
}

export interface CredentialedEndpointsDependencies {
  nodes: NodesRepository;
  pools: PoolsRepository;
  outbox: Outbox;
  addresses: ProxyAddresses;
}

/** A pool's id; anything else (checked by the routes' parameters) is a node's. */
export const isPoolId = (id: string): boolean => id.startsWith('pool-');

export const poolNotFound = (id: string) => new NotFoundError(`no pool ${id}`);

/** The store of a node's or a pool's rules, by the id's kind. */
export class CredentialedEndpoints {
  private readonly nodeStore: CredentialedStore;
  private readonly poolStore: CredentialedStore;

  constructor(deps: CredentialedEndpointsDependencies) {
    const { nodes, pools, outbox, addresses } = deps;
    const ofNode = (node: NodeRecord): CredentialedEndpoint => {
      const view = toNodeView(node, addresses);
      return { id: node.id, jwt: node.jwt, credentials: node.credentials, access: node.access, endpoints: view.endpoints, view: () => Promise.resolve(view) };
    };
    const ofPool = (pool: PoolRecord): CredentialedEndpoint => ({
      id: pool.id,
      jwt: false,
      credentials: pool.credentials,
      access: pool.access,
      endpoints: poolEndpoints(pool, addresses),
      view: async () => (await poolViews([pool], nodes, addresses))[0]!,
    });
    this.nodeStore = {
      noun: 'node',
      notFound,
      find: async (userId, id) => mapped(await nodes.findVisible(userId, id), ofNode),
      findForUpdate: async (trx, userId, id) => mapped(await nodes.findVisibleForUpdate(trx, userId, id), ofNode),
      setRules: async (trx, id, rules, at) => {
        const changed = await nodes.setRules(trx, id, rules, at);
        if (changed) await outbox.add(trx, [lifecycleMessage(rules.access ? 'node.access-changed' : 'node.credentials-changed', changed)]);
        return mapped(changed, ofNode);
      },
    };
    this.poolStore = {
      noun: 'pool',
      notFound: poolNotFound,
      find: async (userId, id) => mapped(await pools.findVisible(userId, id), ofPool),
      findForUpdate: async (trx, userId, id) => mapped(await pools.findVisibleForUpdate(trx, userId, id), ofPool),
      setRules: async (trx, id, rules, at) => {
        const changed = await pools.setRules(trx, id, rules, at);
        if (changed) await outbox.add(trx, [poolMessage(changed)]);
        return mapped(changed, ofPool);
      },
    };
  }

  of(id: string): CredentialedStore {
    return isPoolId(id) ? this.poolStore : this.nodeStore;
  }
}

const mapped = <R, E>(record: R | undefined, map: (record: R) => E): E | undefined => (record === undefined ? undefined : map(record));
