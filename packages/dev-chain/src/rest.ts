import { fromDisplayHex, serializeHeader } from './block';
import type { Chain, ChainEntry } from './chain';
import type { HttpReply } from './rpc';
import { blockView, chainInfoView, headerView } from './views';

type Format = 'bin' | 'hex' | 'json' | undefined;

/** Core 0.21's limit on /rest/headers. */
const MAX_HEADERS = 2000;

/** Core's ParseDataFormat: the extension after the last dot, or none (and the whole part kept). */
function parseFormat(part: string): { param: string; format: Format } {
  const dot = part.lastIndexOf('.');
  const suffix = part.slice(dot + 1);
  if (dot >= 0 && (suffix === 'bin' || suffix === 'hex' || suffix === 'json')) return { param: part.slice(0, dot), format: suffix };
  return { param: part, format: undefined };
}

/** Core's RESTERR: a plain-text message. */
function restError(status: number, message: string): HttpReply {
  return { status, body: `${message}\r\n`, contentType: 'text/plain' };
}

function jsonReply(value: unknown): HttpReply {
  return { status: 200, body: `${JSON.stringify(value)}\n`, contentType: 'application/json' };
}

function formatted(format: Format, bin: () => Buffer, hex: () => string, json: () => unknown): HttpReply {
  switch (format) {
    case 'bin':
      return { status: 200, body: bin(), contentType: 'application/octet-stream' };
    case 'hex':
      return { status: 200, body: `${hex()}\n`, contentType: 'text/plain' };
    case 'json':
      return jsonReply(json());
    default:
      return restError(404, 'output format not found (available: .bin, .hex, .json)');
  }
}

function isHash(value: string): boolean {
  return /^[0-9a-fA-F]{64}$/.test(value);
}

function block(chain: Chain, part: string, txDetails: boolean): HttpReply {
  const { param, format } = parseFormat(part);
  if (!isHash(param)) return restError(400, `Invalid hash: ${param}`);
  const entry = chain.get(param);
  if (!entry) return restError(404, `${param} not found`);
  return formatted(
    format,
    () => entry.raw,
    () => entry.raw.toString('hex'),
    () => blockView(chain, entry, txDetails ? 2 : 1),
  );
}

/**
 * Both forms: Core 0.21's `/rest/headers/<count>/<hash>.<ext>` with its wording, and Core 24's
 * `/rest/headers/<hash>.<ext>?count=<count>` (count 5 by default) with its own.
 */
function headers(chain: Chain, part: string, query: URLSearchParams): HttpReply {
  const { param, format } = parseFormat(part);
  const path = param.split('/');
  let count: number;
  let hash: string;
  if (path.length === 2) {
    const [countText = '', second = ''] = path;
    hash = second;
    // strtol: leading digits count, junk after them is ignored, none at all is 0.
    count = Number(/^\s*([+-]?\d+)/.exec(countText)?.[1] ?? 0);
    if (count < 1 || count > MAX_HEADERS) return restError(400, `Header count out of range: ${countText}`);
  } else if (path.length === 1) {
    hash = path[0] as string;
    const countText = query.get('count') ?? '5';
    count = /^\d+$/.test(countText) ? Number(countText) : 0;
    if (count < 1 || count > MAX_HEADERS) return restError(400, `Header count is invalid or out of acceptable range (1-${MAX_HEADERS}): ${countText}`);
  } else {
    return restError(400, 'Invalid URI format. Expected /rest/headers/<hash>.<ext>?count=<count>');
  }
  if (!isHash(hash)) return restError(400, `Invalid hash: ${hash}`);
  const start = chain.get(hash);
  // An unknown hash is not an error here: Core answers with no headers.
  const entries = start ? Array.from({ length: Math.min(count, chain.height - start.height + 1) }, (_, i) => chain.at(start.height + i) as ChainEntry) : [];
  const raw = () => Buffer.concat(entries.map((entry) => serializeHeader(entry.block.header)));
  return formatted(
    format,
    raw,
    () => raw().toString('hex'),
    () => entries.map((entry) => headerView(chain, entry)),
  );
}

function blockHashByHeight(chain: Chain, part: string): HttpReply {
  const { param, format } = parseFormat(part);
  // ParseInt32: an optional sign and digits only, within 32 bits.
  const height = /^[+-]?\d+$/.test(param) ? Number(param) : Number.NaN;
  if (!(height >= 0 && height < 2 ** 31)) return restError(400, `Invalid height: ${param.replace(/[^\w .,;\-/:?@()]/g, '')}`);
  const entry = chain.at(height);
  if (!entry) return restError(404, 'Block height out of range');
  return formatted(
    format,
    () => fromDisplayHex(entry.hash),
    () => entry.hash,
    () => ({ blockhash: entry.hash }),
  );
}

/**
 * Answers `/rest/...` (the path without its query string), or undefined where Core has no handler
 * (which the server turns into an empty 404). Handlers match by prefix, in Core's order.
 */
export function handleRest(chain: Chain, sizeOnDisk: number, path: string, query: URLSearchParams): HttpReply | undefined {
  const routes: [string, (part: string) => HttpReply][] = [
    ['/rest/block/notxdetails/', (part) => block(chain, part, false)],
    ['/rest/block/', (part) => block(chain, part, true)],
    [
      '/rest/chaininfo',
      (part) =>
        parseFormat(part).format === 'json' ? jsonReply(chainInfoView(chain, sizeOnDisk)) : restError(404, 'output format not found (available: json)'),
    ],
    ['/rest/headers/', (part) => headers(chain, part, query)],
    ['/rest/blockhashbyheight/', (part) => blockHashByHeight(chain, part)],
  ];
  const route = routes.find(([prefix]) => path.startsWith(prefix));
  return route?.[1](path.slice(route[0].length));
}
