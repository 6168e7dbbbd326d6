import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** A webhook URL refused by the policy; the message says why. */
export class TargetRefusedError extends Error {}

/** A URL that passed the policy, and the address the delivery must connect to (pinned: no second lookup). */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Cloud metadata services: never a private address `private` would allow. */
const METADATA = ['169.254.169.254', 'fd00:ec2::254'].map((text) => ipaddr.parse(text).toString());
const PRIVATE_RANGES = new Set(['private', 'uniqueLocal', 'carrierGradeNat']);
const MAX_URL_LENGTH = 2048;

/**
 * Where deliveries may go: public addresses, and the loopback, private or CIDR ranges
 * STREAMS_ALLOW_TARGETS allows besides. Every address a name resolves to must pass, and the
 * delivery connects to the one checked, so DNS rebinding reaches nothing else.
 */
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
    const cidrs = items
      .filter((item) => item !== 'loopback' && item !== 'private')
      .map((item) => {
        if (!ipaddr.isValidCIDR(item)) throw new Error(`STREAMS_ALLOW_TARGETS: '${item}' is not loopback, private or a CIDR range`);
        return ipaddr.parseCIDR(item);
      });
    return new TargetPolicy(items.includes('loopback'), items.includes('private'), cidrs);
  }

  async check(text: string): Promise<CheckedTarget> {
    if (text.length > MAX_URL_LENGTH) throw new TargetRefusedError(`the URL is longer than ${MAX_URL_LENGTH} characters`);
    const url = URL.canParse(text) ? new URL(text) : undefined;
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw new TargetRefusedError('only https URLs (or http to an allowed address)');
    if (url.username || url.password) throw new TargetRefusedError('the URL must not hold credentials');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const found = ipaddr.isValid(host)
      ? [host]
      : (await lookup(host, { all: true, verbatim: true }).catch(() => [])).map((each: { address: string }) => each.address);
    if (found.length === 0) throw new TargetRefusedError(`${host} does not resolve`);
    const addresses = found.map((each) => ipaddr.process(each));
    for (const address of addresses) {
      const range = rangeOf(address);
      if (range !== 'public' && !this.allows(address, range)) throw new TargetRefusedError(`resolves to a ${range} address (${address.toString()})`);
    }
    // Plain http only inside what the operator allowed (a local receiver), never across the internet.
    if (url.protocol === 'http:' && addresses.some((address) => rangeOf(address) === 'public')) {
      throw new TargetRefusedError('only https to a public address');
    }
    const first = addresses[0]!;
    return { url, address: first.toString(), family: first.kind() === 'ipv4' ? 4 : 6 };
  }

  private allows(address: Address, range: string): boolean {
    if (this.cidrs.some(([base, bits]) => base.kind() === address.kind() && address.match(base as never, bits))) return true;
    if (range === 'loopback') return this.loopback;
    return PRIVATE_RANGES.has(range) && this.privateRanges;
  }
}

/** ipaddr's range name, `public` for unicast, `metadata`, and NAT64 forms judged by the IPv4 address inside. */
function rangeOf(address: Address): string {
  if (METADATA.includes(address.toString())) return 'metadata';
  const range = address.range();
  if (range === 'unicast') return 'public';
  if (address.kind() === 'ipv6' && (range === 'rfc6052' || range === 'rfc6145')) {
    const bytes = (address as ipaddr.IPv6).toByteArray().slice(12);
    return rangeOf(ipaddr.fromByteArray(bytes));
  }
  return range;
}
