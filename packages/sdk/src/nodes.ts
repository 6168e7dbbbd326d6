import { requestWithClientToken } from './client-token';
import type { ApiClient, ApiRequest } from './http';
import type { SessionManager } from './session';
import type {
  ChainOption,
  CreateNodeRequest,
  CredentialKind,
  NewNodeCredential,
  Node,
  NodeAccess,
  NodeAccessRequest,
  NodeCredential,
  NodeUsage,
  UsageQuery,
  UserUsage,
} from './types';
import { waitUntilRunning, waitUntilStopped, type WaitOptions } from './wait';

/** The nodes API, called with the session's client access token. */
export class NodesApi {
  constructor(
    private readonly api: ApiClient,
    private readonly session: SessionManager,
  ) {}

  /** The images this installation runs, with the software of each: a public catalogue, so no login is needed. */
  chains(): Promise<ChainOption[]> {
    return this.api.request({ method: 'GET', path: '/chains' });
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

  /** Stops the node, keeping its data, credentials and address; it answers with the node stopping (409 Conflict when it is stopped already). */
  stop(id: string): Promise<Node> {
    return this.call({ method: 'POST', path: `${nodePath(id)}/stop` });
  }

  /** Starts a stopped (or failed) node on its kept data; it answers with the node provisioning. */
  start(id: string): Promise<Node> {
    return this.call({ method: 'POST', path: `${nodePath(id)}/start` });
  }

  /** Stops the node and starts it again on its kept data; it answers with the node stopping. */
  restart(id: string): Promise<Node> {
    return this.call({ method: 'POST', path: `${nodePath(id)}/restart` });
  }

  /** Sets the node's resource class: a running node restarts with it, a stopped one takes it when started. */
  resize(id: string, large: boolean): Promise<Node> {
    return this.call({ method: 'PATCH', path: nodePath(id), body: { large } });
  }

  /** Names the node (1-64 printable characters, trimmed; null removes its name); nothing else changes. */
  rename(id: string, name: string | null): Promise<Node> {
    return this.call({ method: 'PATCH', path: nodePath(id), body: { name } });
  }

  /** The node's access rules (empty lists and a null rate when none are set). */
  access(id: string): Promise<NodeAccess> {
    return this.call({ method: 'GET', path: `${nodePath(id)}/access` });
  }

  /** Sets the node's access rules, whole (what is left out is emptied); every proxy applies them within a second. */
  setAccess(id: string, rules: NodeAccessRequest): Promise<Node> {
    return this.call({ method: 'PUT', path: `${nodePath(id)}/access`, body: rules });
  }

  /** The node's credentials (Basic and URL tokens), oldest first, never a secret (409 Conflict for a jwt node). */
  credentials(id: string): Promise<NodeCredential[]> {
    return this.call({ method: 'GET', path: `${nodePath(id)}/credentials` });
  }

  /**
   * Adds a named credential: Basic (the default; its password in this answer only) or a URL token
   * (`kind: 'token'`; the token and the node's URLs carrying it in this answer only).
   */
  createCredential(id: string, request: { name: string; kind?: CredentialKind }): Promise<NewNodeCredential> {
    return this.call({ method: 'POST', path: `${nodePath(id)}/credentials`, body: request });
  }

  /** A new secret for a credential (same id, name and kind; same user name for Basic), in this answer only; the old one is refused within a second. */
  rotateCredential(id: string, credentialId: string): Promise<NewNodeCredential> {
    return this.call({ method: 'POST', path: `${nodePath(id)}/credentials/${encodeURIComponent(credentialId)}/rotate` });
  }

  /** Revokes one credential (the others keep working); answers the credentials left. */
  removeCredential(id: string, credentialId: string): Promise<NodeCredential[]> {
    return this.call({ method: 'DELETE', path: `${nodePath(id)}/credentials/${encodeURIComponent(credentialId)}` });
  }

  /** The last `lines` lines of the node software's log, oldest first. */
  logs(id: string, lines?: number): Promise<string[]> {
    return this.call({ method: 'GET', path: `${nodePath(id)}/logs`, query: { lines } });
  }

  /** Calls to the node by outcome and bytes per bucket, and totals per method. */
  usage(id: string, query: UsageQuery = {}): Promise<NodeUsage> {
    return this.call({ method: 'GET', path: `${nodePath(id)}/usage`, query: { ...query } });
  }

  /** Usage across all your nodes, with totals per node. */
  allUsage(query: UsageQuery = {}): Promise<UserUsage> {
    return this.call({ method: 'GET', path: '/users/me/usage', query: { ...query } });
  }

  /** Polls the node until it runs (see waitUntilRunning). */
  waitUntilRunning(id: string, options?: WaitOptions): Promise<Node> {
    return waitUntilRunning(id, () => this.poll(id), options);
  }

  /** Polls the node until it is stopped (see waitUntilStopped). */
  waitUntilStopped(id: string, options?: WaitOptions): Promise<Node> {
    return waitUntilStopped(id, () => this.poll(id), options);
  }

  /** A wait's read of the node: marked as background, so a long wait does not fill the events list. */
  private poll(id: string): Promise<Node> {
    return this.call({ method: 'GET', path: nodePath(id), background: true });
  }

  private call<T>(request: Omit<ApiRequest, 'auth'>): Promise<T> {
    return requestWithClientToken(this.api, this.session, request);
  }
}

function nodePath(id: string): string {
  return `/users/me/nodes/${encodeURIComponent(id)}`;
}
