import { nodeEndpoints, type EndpointPorts } from '@cloud/sdk/browser';

/** A read-only call every node of the image answers, for the ready-to-paste curl line. */
export function harmlessCall(image: string): { method: string; path: string } {
  if (image === 'eth') return { method: 'eth_blockNumber', path: '/' };
  if (image === 'avalanche' || image === 'avalanchefuji') return { method: 'info.getNodeID', path: '/ext/info' };
  return { method: 'getblockcount', path: '/' };
}

/** `text` as one shell word: as it is when it has nothing the shell reads, else in single quotes. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The curl line that calls a node through the node-proxy: with its Basic credentials, or for a
 * jwt node the client access token `npx cloud token` prints; --cacert for the dev proxy's
 * self-signed certificate.
 */
export function curlLine(options: {
  image: string;
  address: string;
  port: number;
  caFile: string | null;
  basic?: { user: string; password: string };
  jwt?: boolean;
}): string {
  const { method, path } = harmlessCall(options.image);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] });
  const auth = options.jwt
    ? `-H "authorization: Bearer $(npx cloud token)"`
    : `-u ${options.basic ? shellWord(`${options.basic.user}:${options.basic.password}`) : "'<user>:<password>'"}`;
  return [
    'curl',
    ...(options.caFile ? [`--cacert ${shellWord(options.caFile)}`] : []),
    auth,
    `-H 'content-type: application/json'`,
    `-d '${body}'`,
    `https://${options.address}:${options.port}${path}`,
  ].join(' ');
}

/** The node's endpoints, one per interface it has, named for the person reading them. */
export function endpoints(address: string, ports: EndpointPorts): { name: string; url: string }[] {
  const urls = nodeEndpoints(address, ports);
  const named: [string, string | undefined][] = [
    ['JSON-RPC', urls.jsonRpc],
    ['REST', urls.rest],
    ['WebSocket', urls.webSocket],
    ['Management (/status, /logs)', urls.management],
  ];
  return named.filter((entry): entry is [string, string] => entry[1] !== undefined).map(([name, url]) => ({ name, url }));
}
