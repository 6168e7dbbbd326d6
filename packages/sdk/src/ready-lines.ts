// Lines ready to paste into a terminal or a program, calling a node at the addresses its record
// prints (`node.endpoints`) with one of its credentials: curl, ethers v6, cast, litecoin-cli or
// bitcoin-cli, only those that fit the node's family and the credential's kind. Pure and
// browser-safe: the CLI prints them and the web console shows them (`@cloud/sdk/browser`).

/** The interfaces of a node as URLs (a node record's `endpoints`, or a URL token's `urls`). */
export interface InterfaceUrls {
  jsonRpc: string;
  rest?: string;
  webSocket?: string;
  management?: string;
}

/** A node record's `endpoints`: the URLs, and the same in plain HTTP for loopback clients where served. */
export interface ReadyEndpoints extends InterfaceUrls {
  plain?: InterfaceUrls;
}

/** A URL token's addresses (the `urls` of its creation answer): the token is in each of them. */
export type TokenUrls = ReadyEndpoints;

/** The credential the lines use: a Basic user and password, a URL token's addresses, or a jwt node's client access token. */
export type ReadyCredential = { kind: 'basic'; user: string; password: string } | { kind: 'token'; urls: TokenUrls } | { kind: 'jwt' };

/** What a node speaks: Bitcoin-family JSON-RPC (btc, bch, ltc), Ethereum JSON-RPC, or avalanchego's APIs. */
export type NodeFamily = 'bitcoin' | 'eth' | 'avalanche';

export interface ReadyLine {
  /** The client: `curl`, `ethers`, `ethers (WebSocket)`, `cast`, `litecoin-cli`, `bitcoin-cli`. */
  name: string;
  line: string;
  /** What the line needs besides itself (a CA to trust), or why it uses the plain HTTP address. */
  note?: string;
}

export interface ReadyLinesOptions {
  /** The node's image (`ltc`, `eth`, `avalanchefuji`, ...); or `family` when the image is not known. */
  image?: string;
  family?: NodeFamily;
  /** The node record's `endpoints`. */
  endpoints: ReadyEndpoints;
  credential: ReadyCredential;
  /** A CA file the client must trust (a dev proxy's self-signed certificate); null or absent: the system's CAs do. */
  caFile?: string | null;
}

/**
 * A URL token's addresses from a node's endpoints: the token as the first path segment of each
 * (JSON-RPC and the WebSocket at `…/<token>`, REST under `…/<token>/rest/`), the plain HTTP ones
 * too. The same rule as the platform's (`@cloud/chains` tokenUrls, which a test holds it to): the
 * creation answer of a token has them already; this is for a token kept from then.
 */
export function tokenUrls(endpoints: ReadyEndpoints, token: string): TokenUrls {
  const each = (urls: InterfaceUrls): InterfaceUrls => {
    const withToken = (url: string, rest = '') => `${url.replace(/\/(rest\/)?$/, '')}/${token}${rest}`;
    return {
      jsonRpc: withToken(urls.jsonRpc),
      ...(urls.rest ? { rest: withToken(urls.rest, '/rest/') } : {}),
      ...(urls.webSocket ? { webSocket: withToken(urls.webSocket) } : {}),
    };
  };
  return { ...each(endpoints), ...(endpoints.plain ? { plain: each(endpoints.plain) } : {}) };
}

/** The family of an image: eth, avalanche (and avalanchefuji), else the Bitcoin family. */
export function imageFamily(image: string): NodeFamily {
  if (image === 'eth') return 'eth';
  if (image.startsWith('avalanche')) return 'avalanche';
  return 'bitcoin';
}

function familyOf(options: { image?: string; family?: NodeFamily }): NodeFamily {
  if (options.family) return options.family;
  if (options.image) return imageFamily(options.image);
  throw new Error("readyLines needs the node's image or family");
}

/** A read-only call every node of the family answers, and the path it is posted to. */
export function harmlessCall(imageOrFamily: string): { method: string; path: string } {
  const family = imageOrFamily === 'bitcoin' || imageOrFamily === 'eth' || imageOrFamily === 'avalanche' ? imageOrFamily : imageFamily(imageOrFamily);
  if (family === 'eth') return { method: 'eth_blockNumber', path: '/' };
  if (family === 'avalanche') return { method: 'info.getNodeID', path: '/ext/info' };
  return { method: 'getblockcount', path: '/' };
}

/** `text` as one shell word: as it is when it has nothing the shell reads, else in single quotes. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** `text` as a single-quoted JavaScript string. */
function jsString(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A base URL (`https://127.0.0.1:9650/`, `…/<token>`) with a call's path (`/`, `/ext/info`). */
export function urlWithPath(base: string, path: string): string {
  if (path === '/') return base;
  return `${base.replace(/\/+$/, '')}${path}`;
}

/**
 * The curl line calling a node's JSON-RPC at `url` (a URL token's address has the token in it):
 * with a Basic credential, a jwt node's client access token (`npx cloud token`), nothing more for
 * a token URL, or a `<user>:<password>` placeholder when the credential is not known. `--cacert`
 * for a CA file to trust.
 */
export function curlLine(options: {
  image?: string;
  family?: NodeFamily;
  url: string;
  caFile?: string | null;
  credential?: { kind: 'basic'; user: string; password: string } | { kind: 'jwt' } | { kind: 'token' };
}): string {
  const { method, path } = harmlessCall(familyOf(options));
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] });
  const credential = options.credential;
  const auth =
    credential === undefined
      ? ["-u '<user>:<password>'"]
      : credential.kind === 'basic'
        ? [`-u ${shellWord(`${credential.user}:${credential.password}`)}`]
        : credential.kind === 'jwt'
          ? ['-H "authorization: Bearer $(npx cloud token)"']
          : [];
  // -sS: no progress meter wrapped around the answer, errors still said.
  return [
    'curl -sS',
    ...(options.caFile ? [`--cacert ${shellWord(options.caFile)}`] : []),
    ...auth,
    `-H 'content-type: application/json'`,
    `-d '${body}'`,
    shellWord(urlWithPath(options.url, path)),
  ].join(' ');
}

/** Host and port of an http(s) URL. */
function hostAndPort(url: string): { scheme: string; host: string; port: string } | undefined {
  const match = /^(https?):\/\/(\[[^\]]+\]|[^/:]+)(?::(\d+))?/.exec(url);
  if (!match) return undefined;
  return { scheme: match[1]!, host: match[2]!, port: match[3] ?? (match[1] === 'https' ? '443' : '80') };
}

/**
 * The lines that call the node with this credential, ready to paste: curl always; for an eth node
 * with a URL token ethers v6 (HTTP and WebSocket) and cast, with Basic ethers; for a Bitcoin-family
 * node with Basic its own CLI (litecoin-cli, or bitcoin-cli) on the plain HTTP address, which it
 * needs (it speaks no TLS). A line that cannot work is left out (cast with Basic, a CLI with no
 * plain HTTP address to call).
 */
export function readyLines(options: ReadyLinesOptions): ReadyLine[] {
  const family = familyOf(options);
  const { endpoints, credential } = options;
  const caFile = options.caFile ?? null;
  const lines: ReadyLine[] = [];
  const tls = (url: string) => url.startsWith('https:') || url.startsWith('wss:');
  const trustNote = (url: string) =>
    caFile && tls(url) ? `NODE_EXTRA_CA_CERTS=${shellWord(caFile)} node …: Node.js trusts the dev proxy's CA only when told` : undefined;
  const withNote = (line: ReadyLine, note: string | undefined): ReadyLine => (note ? { ...line, note } : line);

  const rpcUrl = credential.kind === 'token' ? credential.urls.jsonRpc : endpoints.jsonRpc;
  lines.push({
    name: 'curl',
    line: curlLine({ family, url: rpcUrl, caFile: tls(rpcUrl) ? caFile : null, credential: credential.kind === 'token' ? { kind: 'token' } : credential }),
  });

  if (family === 'eth') {
    if (credential.kind === 'token') {
      const { jsonRpc, webSocket } = credential.urls;
      lines.push(withNote({ name: 'ethers', line: `const provider = new JsonRpcProvider(${jsString(jsonRpc)});` }, trustNote(jsonRpc)));
      if (webSocket)
        lines.push(withNote({ name: 'ethers (WebSocket)', line: `const provider = new WebSocketProvider(${jsString(webSocket)});` }, trustNote(webSocket)));
      // Behind a self-signed certificate cast needs SSL_CERT_FILE (the e2e real-clients suite runs
      // both); the line calls the plain HTTP address served to loopback callers instead, when there
      // is one, so it pastes as it is.
      const plain = credential.urls.plain?.jsonRpc;
      if (!caFile || !tls(jsonRpc)) lines.push({ name: 'cast', line: `cast block-number --rpc-url ${shellWord(jsonRpc)}` });
      else if (plain)
        lines.push({
          name: 'cast',
          line: `cast block-number --rpc-url ${shellWord(plain)}`,
          note: `plain HTTP, answered to loopback callers only; over TLS: SSL_CERT_FILE=${shellWord(caFile)} cast block-number --rpc-url ${shellWord(jsonRpc)}`,
        });
    } else if (credential.kind === 'basic') {
      const url = endpoints.jsonRpc;
      const line = `const request = new FetchRequest(${jsString(url)}); request.setCredentials(${jsString(credential.user)}, ${jsString(credential.password)}); const provider = new JsonRpcProvider(request);`;
      lines.push(withNote({ name: 'ethers', line }, trustNote(url)));
    }
  }

  if (family === 'bitcoin' && credential.kind === 'basic') {
    const plainUrl = endpoints.plain?.jsonRpc ?? (endpoints.jsonRpc.startsWith('http:') ? endpoints.jsonRpc : undefined);
    const at = plainUrl === undefined ? undefined : hostAndPort(plainUrl);
    if (at) {
      const cli = options.image === 'ltc' ? 'litecoin-cli' : 'bitcoin-cli';
      const words = [
        cli,
        `-rpcconnect=${at.host}`,
        `-rpcport=${at.port}`,
        `-rpcuser=${credential.user}`,
        `-rpcpassword=${credential.password}`,
        'getblockcount',
      ];
      lines.push({ name: cli, line: words.map(shellWord).join(' '), ...(endpoints.plain ? { note: 'plain HTTP, answered to loopback callers only' } : {}) });
    }
  }
  return lines;
}
