import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** Why a webhook URL is not accepted (the message says it, for the user). */
export class TargetRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

/** A URL whose address was checked: the connection must go to `address`, never to a new resolution. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

const MAX_URL_LENGTH = 2048;
const PRIVATE_RANGES = new Set(['private', 'uniqueLocal', 'carrierGradeNat']);
// Cloud metadata services: fd00:ec2::254 lies in fd00::/8, which `private` would otherwise open.
const METADATA = new Set(['169.254.169.254', 'fd00:ec2::254'].map((text) => ipaddr.parse(text).toNormalizedString()));
// IPv6 forms that carry an IPv4 address: judged by the address inside.
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

/** The IPv4 inside an IPv4-mapped or NAT64 IPv6 address, else the address itself. */
function unwrap(address: Address): Address {
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
    if (v6.match(NAT64))
      return ipaddr.IPv4.parse(
        v6
          .toNormalizedString()
          .split(':')
          .slice(6)
          .map((h) => parseInt(h, 16))
          .flatMap((n) => [n >> 8, n & 255])
          .join('.'),
      );
  }
  return address;
}

/**
 * Which addresses webhooks may reach: public ones always; loopback, private ranges and given CIDRs
 * only when the operator's STREAMS_ALLOW_TARGETS says so. Link-local (cloud metadata), unspecified,
 * multicast and reserved addresses are refused unless a CIDR names them.
 */
export class TargetPolicy {
  private constructor(
    private readonly loopback: boolean,
    private readonly privateRanges: boolean,
    private readonly cidrs: Array<[Address, number]>,
  ) {}

  /** `loopback`, `private` and CIDRs, comma-separated; throws on anything else. */
  static fromSetting(text: string): TargetPolicy {
    let loopback = false;
    let privateRanges = false;
    const cidrs: Array<[Address, number]> = [];
    for (const item of text
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)) {
      if (item === 'loopback') loopback = true;
      else if (item === 'private') privateRanges = true;
      else if (ipaddr.isValidCIDR(item)) cidrs.push(ipaddr.parseCIDR(item));
      else throw new Error(`STREAMS_ALLOW_TARGETS: "${item}" is neither loopback, private nor a CIDR range`);
    }
    return new TargetPolicy(loopback, privateRanges, cidrs);
  }

  /** Checks the URL and every address its host resolves to; the first address is the one to connect to. */
  async check(text: string): Promise<CheckedTarget> {
    if (text.length > MAX_URL_LENGTH) throw new TargetRefusedError(`the URL is longer than ${MAX_URL_LENGTH} characters`);
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new TargetRefusedError('not a valid URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TargetRefusedError('only https (or http to an allowed local address)');
    if (url.username || url.password) throw new TargetRefusedError('credentials are not allowed in the URL');
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const addresses = ipaddr.isValid(host) ? [{ address: host, family: ipaddr.parse(host).kind() === 'ipv4' ? 4 : 6 }] : await resolve(host);
    let anyNonPublic = false;
    for (const { address } of addresses) {
      const verdict = this.verdict(address);
      if (verdict === 'refused') throw new TargetRefusedError(`resolves to a ${describe(address)} address (${address})`);
      if (verdict === 'allowed') anyNonPublic = true;
    }
    if (url.protocol === 'http:' && !anyNonPublic) throw new TargetRefusedError('only https (http only to an allowed local address)');
    const first = addresses[0]!;
    return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
  }

  private verdict(text: string): 'public' | 'allowed' | 'refused' {
    const address = unwrap(ipaddr.parse(text));
    if (this.cidrs.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits))) return 'allowed';
    if (METADATA.has(address.toNormalizedString())) return 'refused';
    const range = address.range();
    if (range === 'unicast') return 'public';
    if (range === 'loopback') return this.loopback ? 'allowed' : 'refused';
    if (PRIVATE_RANGES.has(range)) return this.privateRanges ? 'allowed' : 'refused';
    return 'refused';
  }
}

function describe(text: string): string {
  const address = unwrap(ipaddr.parse(text));
  if (METADATA.has(address.toNormalizedString())) return 'metadata service';
  const range = address.range();
  if (PRIVATE_RANGES.has(range)) return 'private';
  if (range === 'linkLocal') return 'link-local';
  return range === 'unspecified' || range === 'loopback' || range === 'multicast' ? range : 'reserved';
}

async function resolve(host: string): Promise<Array<{ address: string; family: number }>> {
  try {
    const found = await lookup(host, { all: true, verbatim: true });
    if (found.length === 0) throw new Error('no address');
    return found;
  } catch (error) {
    throw new TargetRefusedError(`${host} does not resolve (${(error as Error).message})`);
  }
}
