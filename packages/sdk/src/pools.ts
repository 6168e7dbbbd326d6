import { requestWithClientToken } from './client-token';
import type { ApiClient, ApiRequest } from './http';
import type { SessionManager } from './session';
import type {
  CreatePoolRequest,
  CredentialKind,
  DeletedPool,
  NewNodeCredential,
  NodeAccess,
  NodeAccessRequest,
  NodeCredential,
  NodeUsage,
  Pool,
  UpdatePoolRequest,
  UsageQuery,
} from './types';

/**
 * The pools API, called with the session's client access token: one endpoint, with credentials of
 * its own, over several of your nodes of one chain (same image and dev flag). The proxy sends each
 * call to a member that runs, is not syncing and is within `maxLagBlocks` of the best member's head.
 */
export class PoolsApi {
  constructor(
    private readonly api: ApiClient,
    private readonly session: SessionManager,
  ) {}

  /** Creates a pool of your nodes; it answers with its first Basic credential (`nodeUser`/`nodePass`), shown once. */
  create(request: CreatePoolRequest): Promise<Pool> {
    return this.call({ method: 'POST', path: '/users/me/pools', body: request });
  }

  /** Your pools, oldest first, each with its members' state and sync. */
  list(): Promise<Pool[]> {
    return this.call({ method: 'GET', path: '/users/me/pools' });
  }

  get(id: string): Promise<Pool> {
    return this.call({ method: 'GET', path: poolPath(id) });
  }

  /** Renames the pool, replaces its members (as a whole, with the same checks as at creation) or sets its lag; its endpoint and credentials stay. */
  update(id: string, request: UpdatePoolRequest): Promise<Pool> {
    return this.call({ method: 'PATCH', path: poolPath(id), body: request });
  }

  /** Deletes the pool: its endpoint and credentials stop working; its members are not touched. */
  remove(id: string): Promise<DeletedPool> {
    return this.call({ method: 'DELETE', path: poolPath(id) });
  }

  /** Calls through the pool's endpoint, as a node's usage (`nodeId` is the pool's id), whichever member served them. */
  usage(id: string, query: UsageQuery = {}): Promise<NodeUsage> {
    return this.call({ method: 'GET', path: `${poolPath(id)}/usage`, query: { ...query } });
  }

  // A pool's own credentials and access rules, as a node's (see NodesApi): the proxy takes them at the pool's endpoint.

  access(id: string): Promise<NodeAccess> {
    return this.call({ method: 'GET', path: `${poolPath(id)}/access` });
  }

  setAccess(id: string, rules: NodeAccessRequest): Promise<Pool> {
    return this.call({ method: 'PUT', path: `${poolPath(id)}/access`, body: rules });
  }

  credentials(id: string): Promise<NodeCredential[]> {
    return this.call({ method: 'GET', path: `${poolPath(id)}/credentials` });
  }

  /** A named Basic credential or URL token for the pool; its secret in this answer only. */
  createCredential(id: string, request: { name: string; kind?: CredentialKind }): Promise<NewNodeCredential> {
    return this.call({ method: 'POST', path: `${poolPath(id)}/credentials`, body: request });
  }

  rotateCredential(id: string, credentialId: string): Promise<NewNodeCredential> {
    return this.call({ method: 'POST', path: `${poolPath(id)}/credentials/${encodeURIComponent(credentialId)}/rotate` });
  }

  removeCredential(id: string, credentialId: string): Promise<NodeCredential[]> {
    return this.call({ method: 'DELETE', path: `${poolPath(id)}/credentials/${encodeURIComponent(credentialId)}` });
  }

  private call<T>(request: Omit<ApiRequest, 'auth'>): Promise<T> {
    return requestWithClientToken(this.api, this.session, request);
  }
}

function poolPath(id: string): string {
  return `/users/me/pools/${encodeURIComponent(id)}`;
}
