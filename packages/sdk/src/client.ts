import { withClientToken } from './client-token';
import type { Credentials } from './http';
import { callNodeRpc, getNodeManagement, withPath, type NodeCallOptions } from './node-rpc';
import { isValidatorImage, PlatformClient, type PlatformClientOptions } from './platform-client';
import type { Node, Validator } from './types';

export interface CloudClientOptions extends PlatformClientOptions {
  /** How calls to nodes through the node-proxy connect (the CA to trust, a timeout). */
  proxy?: NodeCallOptions;
}

/** Where and how to call a node: a node record, a pool record or a validator record (their `endpoints`). */
type NodeTarget = (Pick<Node, 'endpoints' | 'image'> & { jwt?: boolean }) | Pick<Validator, 'endpoints' | 'image'>;

/** A credential to call a node with: a Basic user name and password, or a URL token (`nt_…`). */
export type NodeCredentialSecret = { user: string; password: string } | { token: string };

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
export class CloudClient extends PlatformClient {
  private readonly proxy: NodeCallOptions;

  constructor(options: CloudClientOptions = {}) {
    super(options);
    this.proxy = { ...options.proxy, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) };
  }

  /**
   * A JSON-RPC call to a node (or a pool of nodes) through the node-proxy, at the JSON-RPC URL its
   * record prints (`endpoints.jsonRpc`, http or https as the platform serves it): with a Basic credential, a URL
   * token (the token's URL), or, for a jwt node, the session's client access token. Avalanche
   * validator nodes get the API path that serves the method (`info.*` → /ext/info, `platform.*`
   * → /ext/bc/P, ...).
   */
  async rpc(node: NodeTarget, method: string, params: unknown[] | Record<string, unknown> = [], credential?: NodeCredentialSecret): Promise<unknown> {
    const base = credential && 'token' in credential ? `${node.endpoints.jsonRpc.replace(/\/+$/, '')}/${credential.token}` : node.endpoints.jsonRpc;
    const url = isValidatorImage(node.image) ? withPath(base, avalancheApiPath(method)) : base;
    if ('jwt' in node && node.jwt) return withClientToken(this.session, (auth) => callNodeRpc(url, auth, method, params, this.proxy));
    if (credential && 'token' in credential) return callNodeRpc(url, undefined, method, params, this.proxy);
    return callNodeRpc(url, requireBasic(credential), method, params, this.proxy);
  }

  /** GET of a validator node's management API (`endpoints.management`): `/status` (its health) or `/logs?lines=N`. */
  management(validator: Pick<Validator, 'endpoints'>, path: string, basic: { user: string; password: string }): Promise<unknown> {
    const base = validator.endpoints.management;
    if (!base) throw new TypeError('this validator record has no management endpoint');
    return getNodeManagement(withPath(base, path), requireBasic(basic), this.proxy);
  }
}

function requireBasic(basic: { user: string; password: string } | undefined): Credentials {
  if (!basic) throw new TypeError('this node takes Basic credentials (nodeUser and nodePass, shown when it was created or its credentials were rotated)');
  return { basic };
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
