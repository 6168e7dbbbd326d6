// How deep a JSON body nests, read from its bytes before any parser or walk sees it: one pass,
// strings skipped, so the work is linear in the body's size whatever its shape (issue 29: `[` ×
// 3,000 cost the square of the depth in the walks after parsing, and 7,000 levels overflowed them).

/** The most levels of `[`/`{` an API body may nest: as the node-proxy allows JSON-RPC bodies. */
export const MAX_BODY_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** Whether the JSON text in `bytes` nests deeper than `maxDepth` (malformed text is left to the parser). */
export function nestsDeeperThan(bytes: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === QUOTE) {
      // Skip the string: to the next quote not escaped by a backslash (UTF-8 continuation bytes are never ASCII).
      for (i++; i < bytes.length && bytes[i] !== QUOTE; i++) if (bytes[i] === BACKSLASH) i++;
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      if (++depth > maxDepth) return true;
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

/** The body parser's `verify`: a body nesting deeper than MAX_BODY_DEPTH is refused (400) before it is parsed. */
export function refuseDeepBodies(_req: unknown, _res: unknown, bytes: Buffer): void {
  if (nestsDeeperThan(bytes, MAX_BODY_DEPTH)) throw Object.assign(new Error('the request body nests too deep'), { status: 400, type: 'entity.too.deep' });
}
