/**
 * The one definition of the addresses the platform prints for a node: the nodes and staking APIs
 * put them in every node record (`endpoints`), and the SDK, the CLI and the console show those,
 * never an address of their own making. Pure, so the console's bundle uses it too.
 *
 * Two kinds of address reach a node at the node-proxy (services/node-proxy/README.md):
 * - routed by credential: `https://127.0.0.1:9332/` with the node's Basic user (the proxy finds the
 *   node by the user name), or `https://127.0.0.1:8545/<token>` with a URL token. A host every
 *   client resolves, so ethers, viem, cast, bitcoin-core and litecoin-cli take it as pasted.
 * - routed by name: `https://<nodeId>.<NODE_DOMAIN>:9332/` (the runtime contract's node address),
 *   for an operator's wildcard DNS, and for `jwt` nodes, whose Bearer token names no node.
 */

/** The ports a node or validator has at the node-proxy (the runtime contract's), by interface. */
export interface EndpointPorts {
  jsonRpc: number;
  rest?: number;
  webSocket?: number;
  management?: number;
}

/** A node's interfaces as URLs: JSON-RPC at `/`, REST under `/rest/`, the WebSocket, a validator's management API. */
export interface InterfaceUrls {
  jsonRpc: string;
  rest?: string;
  webSocket?: string;
  management?: string;
}

/** What a node record says of where to call it. */
export interface NodeEndpoints extends InterfaceUrls {
  /**
   * The same interfaces in plain HTTP, for clients that cannot speak TLS or take a CA
   * (litecoin-cli, bitcoin-cli): served to loopback callers only, on the same ports. Absent where
   * the proxy serves no plain HTTP besides TLS (PROXY_TLS=off prints http everywhere instead).
   */
  plain?: InterfaceUrls;
}

/** Where clients reach the node-proxy, from the platform's settings (`proxyAddressesOf`). */
export interface ProxyAddresses {
  /** `https://127.0.0.1`, or the operator's PUBLIC_NODE_URL, e.g. `https://{node}.nodes.example.com`. */
  base: string;
  /** Nodes' names are `<nodeId>.<nodeDomain>`: the host of a jwt node's address when `base` names no node. */
  nodeDomain: string;
  /** The runtime contract's port (8332, 9650, ...) → the port clients reach it on, where they differ. */
  ports?: Readonly<Record<number, number>>;
  /** The proxy also serves plain HTTP to loopback callers on its TLS ports (the embedded default). */
  loopbackHttp: boolean;
}

/** The placeholder of PUBLIC_NODE_URL's host that a node's id replaces. */
export const NODE_PLACEHOLDER = '{node}';

/** The loopback host every client resolves (no `*.localhost` lookup, which glibc does not do). */
export const LOOPBACK_HOST = '127.0.0.1';

/**
 * Where clients reach the proxy: the operator's PUBLIC_NODE_URL, or else the loopback address in
 * the proxy's own scheme (http with PROXY_TLS=off), with plain HTTP on loopback beside TLS unless
 * the operator turned it off.
 */
export function proxyAddressesOf(settings: {
  PUBLIC_NODE_URL?: string | undefined;
  PROXY_TLS: 'on' | 'off';
  PROXY_LOOPBACK_HTTP: boolean;
  NODE_DOMAIN: string;
  ports?: Readonly<Record<number, number>>;
}): ProxyAddresses {
  const base = settings.PUBLIC_NODE_URL ?? `${settings.PROXY_TLS === 'on' ? 'https' : 'http'}://${LOOPBACK_HOST}`;
  return {
    base: base.replace(/\/+$/, ''),
    nodeDomain: settings.NODE_DOMAIN,
    ...(settings.ports ? { ports: settings.ports } : {}),
    loopbackHttp: settings.PUBLIC_NODE_URL === undefined && settings.PROXY_TLS === 'on' && settings.PROXY_LOOPBACK_HTTP,
  };
}

/**
 * A node's addresses. `routedByCredential` false (a jwt node): its name-routed address, since a
 * client access token names no node.
 */
export function nodeEndpoints(node: { id: string; ports: EndpointPorts; routedByCredential: boolean }, at: ProxyAddresses): NodeEndpoints {
  const { scheme, host } = hostOf(node, at);
  const urls = (scheme: string, wsScheme: string): InterfaceUrls => {
    const url = (interfaceScheme: string, port: number, path: string) => `${interfaceScheme}://${host}:${at.ports?.[port] ?? port}${path}`;
    const { jsonRpc, rest, webSocket, management } = node.ports;
    return {
      jsonRpc: url(scheme, jsonRpc, '/'),
      ...(rest ? { rest: url(scheme, rest, '/rest/') } : {}),
      ...(webSocket ? { webSocket: url(wsScheme, webSocket, '/') } : {}),
      ...(management ? { management: url(scheme, management, '/') } : {}),
    };
  };
  const tls = scheme === 'https';
  const plain = at.loopbackHttp && tls && host === LOOPBACK_HOST;
  return { ...urls(scheme, tls ? 'wss' : 'ws'), ...(plain ? { plain: urls('http', 'ws') } : {}) };
}

function hostOf(node: { id: string; routedByCredential: boolean }, at: ProxyAddresses): { scheme: string; host: string } {
  const [scheme, host] = at.base.split('://') as [string, string];
  if (host.includes(NODE_PLACEHOLDER)) return { scheme, host: host.replace(NODE_PLACEHOLDER, node.id) };
  return { scheme, host: node.routedByCredential ? host : `${node.id}.${at.nodeDomain}` };
}

/**
 * A URL token's addresses: the token as the first path segment of each (JSON-RPC at
 * `…/<token>`, REST under `…/<token>/rest/`, the WebSocket at `…/<token>`). The proxy routes by
 * the token alone and strips it before the call reaches the node.
 */
export function tokenUrls(endpoints: NodeEndpoints, token: string): InterfaceUrls {
  const withToken = (url: string | undefined, rest = '') => (url === undefined ? undefined : `${url.replace(/\/(rest\/)?$/, '')}/${token}${rest}`);
  return {
    jsonRpc: withToken(endpoints.jsonRpc)!,
    ...(endpoints.rest ? { rest: withToken(endpoints.rest, '/rest/') } : {}),
    ...(endpoints.webSocket ? { webSocket: withToken(endpoints.webSocket) } : {}),
  };
}
