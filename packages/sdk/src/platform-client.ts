import { AccountsApi } from './accounts';
import { ApiClient, type HttpOptions } from './http';
import { NodesApi } from './nodes';
import { PoolsApi } from './pools';
import { SessionManager, type LoginOptions, type Session } from './session';
import { StakingApi } from './staking';
import { StreamsApi } from './streams';
import type { UserProfile } from './types';

/** The runtime contract's default addresses: the platform as `npm start` runs it. */
export const DEFAULT_URLS = {
  accounts: 'http://127.0.0.1:3001',
  nodes: 'http://127.0.0.1:3002',
  staking: 'http://127.0.0.1:3003',
  streams: 'http://127.0.0.1:3004',
} as const;

export interface PlatformClientOptions extends HttpOptions {
  accountsUrl?: string;
  nodesUrl?: string;
  stakingUrl?: string;
  streamsUrl?: string;
  /** A session kept from before (see onSessionChange). */
  session?: Session;
  /** Hears every change of the session (login, token refresh, logout), to persist it. */
  onSessionChange?: (session: Session | undefined) => void;
}

/**
 * The platform's four APIs (pools are the nodes API's) sharing one session: what runs anywhere
 * fetch does (Node and browsers; `@cloud/sdk/browser` exports it for the web console).
 * `CloudClient` adds calls to hosted nodes through the node-proxy, which need Node.
 */
export class PlatformClient {
  readonly accounts: AccountsApi;
  readonly nodes: NodesApi;
  /** Pools of your nodes (the nodes service serves them). */
  readonly pools: PoolsApi;
  readonly staking: StakingApi;
  /** Webhook streams of your nodes' blocks and address activity. */
  readonly streams: StreamsApi;
  protected readonly session: SessionManager;

  constructor(options: PlatformClientOptions = {}) {
    const accountsApi = new ApiClient('accounts', options.accountsUrl ?? DEFAULT_URLS.accounts, options);
    this.session = new SessionManager(accountsApi, options.session, options.onSessionChange ?? (() => undefined));
    this.accounts = new AccountsApi(accountsApi, this.session);
    const nodesApi = new ApiClient('nodes', options.nodesUrl ?? DEFAULT_URLS.nodes, options);
    this.nodes = new NodesApi(nodesApi, this.session);
    this.pools = new PoolsApi(nodesApi, this.session);
    this.staking = new StakingApi(new ApiClient('staking', options.stakingUrl ?? DEFAULT_URLS.staking, options), this.session);
    this.streams = new StreamsApi(new ApiClient('streams', options.streamsUrl ?? DEFAULT_URLS.streams, options), this.session);
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

  /** A valid client access token (for the nodes, staking and streams APIs, and jwt nodes), minted or refreshed as needed. */
  clientAccessToken(): Promise<string> {
    return this.session.clientAccessToken();
  }
}

/** Whether a node runs an Avalanche validator (the staking service's images), not a user's node. */
export function isValidatorImage(image: string): boolean {
  return image === 'avalanche' || image === 'avalanchefuji';
}
