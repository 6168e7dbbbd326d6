// STAND-IN (branch i32-api): the smallest TargetPolicy the API needs to run; the delivery branch's
// domain/targets.ts (i32-deliver) replaces this file at merge.
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** A webhook URL refused by the policy; the message says why. */
export class TargetRefusedError extends Error {}

export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

const PRIVATE_RANGES = new Set(['private', 'uniqueLocal', 'carrierGradeNat']);

/** Where deliveries may go: public addresses, and what STREAMS_ALLOW_TARGETS allows besides. */
export class TargetPolicy {
  private constructor(
    private readonly loopback: boolean,
    private readonly privateRanges: boolean,
    private readonly cidrs: Array<[Address, number]>,
  ) {}

  /** `loopback`, `private` and CIDR ranges, comma-separated; throws on anything else. */
  static fromSetting(text: string): TargetPolicy {
    const items = text
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
    const cidrs = items.filter((item) => item !== 'loopback' && item !== 'private').map((item) => ipaddr.parseCIDR(item));
    return new TargetPolicy(items.includes('loopback'), items.includes('private'), cidrs);
  }

  async check(text: string): Promise<CheckedTarget> {
    if (text.length > 2048) throw new TargetRefusedError('the URL is longer than 2048 characters');
    const url = URL.canParse(text) ? new URL(text) : undefined;
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw new TargetRefusedError('only https (or http to an allowed address) URLs');
    if (url.username || url.password) throw new TargetRefusedError('the URL must not hold credentials');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const found = ipaddr.isValid(host) ? [{ address: host }] : await lookup(host, { all: true }).catch(() => []);
    if (found.length === 0) throw new TargetRefusedError(`${host} does not resolve`);
    for (const { address } of found) {
      const parsed = ipaddr.process(address);
      const range = parsed.range();
      if (range === 'unicast') continue;
      if (!this.allows(parsed, range)) throw new TargetRefusedError(`resolves to a ${range} address (${address})`);
    }
    const everyPublic = found.every(({ address }) => ipaddr.process(address).range() === 'unicast');
    if (url.protocol === 'http:' && everyPublic) throw new TargetRefusedError('only https to a public address');
    const first = ipaddr.process(found[0]!.address);
    return { url, address: first.toString(), family: first.kind() === 'ipv4' ? 4 : 6 };
  }

  private allows(address: Address, range: string): boolean {
    if (range === 'loopback') return this.loopback;
    if (PRIVATE_RANGES.has(range) && this.privateRanges) return true;
    return this.cidrs.some(([base, bits]) => base.kind() === address.kind() && address.match(base as never, bits));
  }
}
