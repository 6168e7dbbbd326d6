import type { IncomingMessage } from 'node:http';

interface Failures {
  count: number;
  /** When the window opened by the first failure ends, and the count starts again. */
  until: number;
}

/**
 * Wrong credentials counted per (node, client address): after `maxFailures` in a window, that
 * address is refused (429) for that node until the window ends, whatever it presents but
 * credentials already verified. Other addresses, and so the node's owner elsewhere, are not
 * slowed. At most `maxEntries` pairs are remembered (the oldest forgotten first), so an attacker
 * with many addresses or node names cannot grow memory; it can only make its own entries age out.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, Failures>();

  constructor(private readonly options: { maxFailures: number; windowMs: number; maxEntries: number; now: () => number }) {}

  /** The key of a caller for a node. */
  static key(nodeId: string, address: string): string {
    return `${nodeId} ${address}`;
  }

  /** Seconds until this caller may try again, or undefined when it may now: one Map lookup. */
  retryAfter(key: string): number | undefined {
    const entry = this.failures.get(key);
    if (entry === undefined || entry.count < this.options.maxFailures) return undefined;
    const left = entry.until - this.options.now();
    if (left > 0) return Math.ceil(left / 1000);
    this.failures.delete(key);
    return undefined;
  }

  /** Counts one wrong attempt. */
  fail(key: string): void {
    const now = this.options.now();
    let entry = this.failures.get(key);
    if (entry === undefined || entry.until <= now) {
      entry = { count: 0, until: now + this.options.windowMs };
      this.failures.delete(key);
      if (this.failures.size >= this.options.maxEntries) this.failures.delete(this.failures.keys().next().value!);
      this.failures.set(key, entry);
    }
    entry.count++;
  }

  get size(): number {
    return this.failures.size;
  }
}

/**
 * The caller's address: the peer's, or behind a trusted ingress (TRUST_PROXY) the last
 * X-Forwarded-For entry, the one the ingress added (earlier ones are the caller's to write).
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? req.headers['x-forwarded-for'] : undefined;
  const header = Array.isArray(forwarded) ? forwarded[forwarded.length - 1] : forwarded;
  const last = header?.split(',').pop()?.trim();
  return last || (req.socket.remoteAddress ?? 'unknown');
}
