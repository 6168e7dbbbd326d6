import { AccountsApi } from './accounts';
import { withClientToken } from './client-token';
import { ApiClient, type Credentials, type HttpOptions } from './http';
import { callNodeRpc, getNodeManagement, type NodeCallOptions } from './node-rpc';
import { NodesApi } from './nodes';
import { SessionManager, type LoginOptions, type Session } from './session';
import { StakingApi } from './staking';
import type { Node, UserProfile, Validator } from './types';

/** The runtime contract's default addresses: the platform as `npm start` runs it. */
export const DEFAULT_URLS = {
  accounts: 'http://127.0.0.1:3001',
  nodes: 'http://127.0.0.1:3002',
  staking: 'http://127.0.0.1:3003',
} as const;

export interface CloudClientOptions extends HttpOptions {
  accountsUrl?: string;
  nodesUrl?: string;
  stakingUrl?: string;
  /** A session kept from before (see onSessionChange). */
  session?: Session;
  /** Hears every change of the session (login, token refresh, logout), to persist it. */
  onSessionChange?: (session: Session | undefined) => void;
  /** How calls to nodes through the node-proxy connect (CA to trust, scheme). */
  proxy?: NodeCallOptions;
}

/** Where and how to call a node: a node record, or a validator record. */
type NodeTarget = Pick<Node, 'address' | 'ports' | 'jwt' | 'image'> | Pick<Validator, 'address' | 'ports' | 'image'>;

/**
 * The platform's client: `accounts`, `nodes` and `staking` APIs sharing one session, and calls to
 * hosted nodes through the node-proxy.
 *
 * ```ts
 * const cloud = new CloudClient();
 * await cloud.login('ada@example.com', password);
 * const node = await cloud.nodes.create({ image: 'ltc' });
 * await cloud.nodes.waitUntilRunning(node.id);
 * await cloud.rpc(node, 'getblockcount', [], { user: node.nodeUser!, password: node.nodePass! });
 * ```
 */
export class CloudClient {
  readonly accounts: AccountsApi;
  readonly nodes: NodesApi;
  readonly staking: StakingApi;
  private readonly session: SessionManager;
  private readonly proxy: NodeCallOptions;

  constructor(options: CloudClientOptions = {}) {
    const accountsApi = new ApiClient('accounts', options.accountsUrl ?? DEFAULT_URLS.accounts, options);
    this.session = new SessionManager(accountsApi, options.session, options.onSessionChange ?? (() => undefined));
    this.accounts = new AccountsApi(accountsApi, this.session);
    this.nodes = new NodesApi(new ApiClient('nodes', options.nodesUrl ?? DEFAULT_URLS.nodes, options), this.session);
    this.staking = new StakingApi(new ApiClient('staking', options.stakingUrl ?? DEFAULT_URLS.staking, options), this.session);
    this.proxy = { ...options.proxy, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) };
  }

  /**
   * Logs in (user id or e-mail, and password, and `code` when the account has two-factor login
   * on) and makes the session's client key. Without a needed code it throws TwoFactorRequiredError.
   */
  login(user: string, password: string, options: LoginOptions = {}): Promise<UserProfile> {
    return this.session.login(user, password, options);
  }

  /** Uses a client key pair for client tokens (scripts and services that hold one), without a login. */
  useClientKey(clientId: string, clientSecret: string): Promise<void> {
    return this.session.useClientKey(clientId, clientSecret);
  }

  /** Ends the session, deleting its client key (which revokes its tokens) while the login lasts. */
  logout(): Promise<{ revoked: boolean }> {
    return this.session.logout();
  }

  /** The session to keep, or undefined when logged out. */
  currentSession(): Session | undefined {
    return this.session.current();
  }

  /** The session's account token while it is valid; NotLoggedInError otherwise. */
  accountToken(): string {
    return this.session.accountToken();
  }

  /** A valid client access token (for the nodes and staking APIs, and jwt nodes), minted or refreshed as needed. */
  clientAccessToken(): Promise<string> {
    return this.session.clientAccessToken();
  }

  /**
   * A JSON-RPC call to a node through the node-proxy, on the node's own port: with its Basic
   * credentials, or, for a jwt node, the session's client access token. Avalanche validator
   * nodes get the API path that serves the method (`info.*` → /ext/info, `platform.*` → /ext/bc/P, ...).
   */
  async rpc(node: NodeTarget, method: string, params: unknown[] | Record<string, unknown> = [], basic?: { user: string; password: string }): Promise<unknown> {
    const endpoint = { address: node.address, port: node.ports.jsonRpc, path: isValidatorImage(node.image) ? avalancheApiPath(method) : '/' };
    if ('jwt' in node && node.jwt) return withClientToken(this.session, (auth) => callNodeRpc(endpoint, auth, method, params, this.proxy));
    return callNodeRpc(endpoint, requireBasic(basic), method, params, this.proxy);
  }

  /** GET of a validator node's management API: `/status` (its health) or `/logs?lines=N`. */
  management(validator: Pick<Validator, 'address' | 'ports'>, path: string, basic: { user: string; password: string }): Promise<unknown> {
    return getNodeManagement({ address: validator.address, port: validator.ports.management }, path, requireBasic(basic), this.proxy);
  }
}

function requireBasic(basic: { user: string; password: string } | undefined): Credentials {
  if (!basic) throw new TypeError('this node takes Basic credentials (nodeUser and nodePass, shown when it was created or its credentials were rotated)');
  return { basic };
}

/** Whether a node runs an Avalanche validator (the staking service's images), not a user's node. */
export function isValidatorImage(image: string): boolean {
  return image === 'avalanche' || image === 'avalanchefuji';
}

/** The avalanchego API path that serves a method, by its namespace. */
export function avalancheApiPath(method: string): string {
  const namespace = method.includes('.') ? method.slice(0, method.indexOf('.')) : method.split('_')[0]!;
  const paths: Record<string, string> = {
    info: '/ext/info',
    health: '/ext/health',
    platform: '/ext/bc/P',
    avm: '/ext/bc/X',
    avax: '/ext/bc/C/avax',
    eth: '/ext/bc/C/rpc',
    net: '/ext/bc/C/rpc',
    web3: '/ext/bc/C/rpc',
  };
  return paths[namespace] ?? '/ext/bc/C/rpc';
}
