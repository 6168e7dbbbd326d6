/** How a JSON-RPC error answer starts its error: an object under `"error"` (a result or `"error":null` is not one). */
const MARKER = Buffer.from('"error":{');
const OVERLAP = MARKER.length - 1;

/**
 * Counts the JSON-RPC error answers in a node's answer while it streams to the caller, without
 * parsing it: `"error":{` with unescaped quotes is only ever an object key (inside a JSON string
 * the quotes would be escaped), and Bitcoin Core, geth, anvil and avalanchego all write compact
 * JSON. A marker split between two chunks is found too. With `keep`, the chunks are kept so a
 * batch's errors can be matched to its calls afterwards.
 */
export class NodeErrorScan {
  errors = 0;
  readonly chunks: Buffer[] | undefined;
  private tail: Buffer | undefined;

  constructor(keep = false) {
    this.chunks = keep ? [] : undefined;
  }

  feed(chunk: Buffer): void {
    this.chunks?.push(chunk);
    if (this.tail) {
      // Only a marker that starts in the tail and ends in this chunk: whole ones are counted on their own side.
      const seam = Buffer.concat([this.tail, chunk.subarray(0, OVERLAP)]);
      if (seam.indexOf(MARKER) >= 0) this.errors += 1;
    }
    for (let at = chunk.indexOf(MARKER); at >= 0; at = chunk.indexOf(MARKER, at + MARKER.length)) this.errors += 1;
    this.tail = chunk.length >= OVERLAP ? chunk.subarray(chunk.length - OVERLAP) : Buffer.concat([this.tail ?? Buffer.alloc(0), chunk]).subarray(-OVERLAP);
  }

  /** The whole answer, when the chunks were kept. */
  text(): string {
    return Buffer.concat(this.chunks ?? []).toString('utf8');
  }
}
