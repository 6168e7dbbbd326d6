import { requestWithClientToken } from './client-token';
import type { ApiClient, ApiRequest } from './http';
import type { SessionManager } from './session';
import type { ChainOption, CreateNodeRequest, Node } from './types';
import { waitUntilRunning, type WaitOptions } from './wait';

/** The nodes API, called with the session's client access token. */
export class NodesApi {
  constructor(
    private readonly api: ApiClient,
    private readonly session: SessionManager,
  ) {}

  /** The images this installation runs, with the software of each. */
  chains(): Promise<ChainOption[]> {
    return this.call({ method: 'GET', path: '/chains' });
  }

  /** Creates a node; it answers in state provisioning, with its Basic credentials (shown once) unless `jwt`. */
  create(request: CreateNodeRequest): Promise<Node> {
    return this.call({ method: 'POST', path: '/users/me/nodes', body: request });
  }

  list(): Promise<Node[]> {
    return this.call({ method: 'GET', path: '/users/me/nodes' });
  }

  get(id: string): Promise<Node> {
    return this.call({ method: 'GET', path: nodePath(id) });
  }

  /** Deletes a node; it answers with the node in state deleting. */
  remove(id: string): Promise<Node> {
    return this.call({ method: 'DELETE', path: nodePath(id) });
  }

  /** New Basic credentials for the node (shown once); the old ones stop working. */
  rotateCredentials(id: string): Promise<Node> {
    return this.call({ method: 'POST', path: `${nodePath(id)}/credentials` });
  }

  /** The last `lines` lines of the node software's log, oldest first. */
  logs(id: string, lines?: number): Promise<string[]> {
    return this.call({ method: 'GET', path: `${nodePath(id)}/logs`, query: { lines } });
  }

  /** Polls the node until it runs (see waitUntilRunning). */
  waitUntilRunning(id: string, options?: WaitOptions): Promise<Node> {
    return waitUntilRunning(id, () => this.get(id), options);
  }

  private call<T>(request: Omit<ApiRequest, 'auth'>): Promise<T> {
    return requestWithClientToken(this.api, this.session, request);
  }
}

function nodePath(id: string): string {
  return `/users/me/nodes/${encodeURIComponent(id)}`;
}
