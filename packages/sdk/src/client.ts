import { withClientToken } from './client-token';
import type { Credentials } from './http';
import { callNodeRpc, getNodeManagement, type NodeCallOptions } from './node-rpc';
import { isValidatorImage, PlatformClient, type PlatformClientOptions } from './platform-client';
import type { Node, Validator } from './types';

export interface CloudClientOptions extends PlatformClientOptions {
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
export class CloudClient extends PlatformClient {
  private readonly proxy: NodeCallOptions;

  constructor(options: CloudClientOptions = {}) {
    super(options);
    this.proxy = { ...options.proxy, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) };
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
