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

/** The node's endpoints, one per interface it has. */
export function endpoints(address: string, ports: { jsonRpc: number; rest?: number; webSocket?: number; management?: number }) {
  const list = [{ name: 'JSON-RPC', url: `https://${address}:${ports.jsonRpc}/` }];
  if (ports.rest) list.push({ name: 'REST', url: `https://${address}:${ports.rest}/rest/` });
  if (ports.webSocket) list.push({ name: 'WebSocket', url: `wss://${address}:${ports.webSocket}/` });
  if (ports.management) list.push({ name: 'Management (/status, /logs)', url: `https://${address}:${ports.management}/` });
  return list;
}
