import ipaddr from 'ipaddr.js';
import type { NodeAccess } from '@cloud/bus';
import { normaliseMethod, type CallPolicy, type Verdict } from '../json-rpc/method-policy';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * A node's access rules as the proxy checks them, compiled once per route: parsed ranges, Sets of
 * origins and refused names, and the node's rate and burst. Built by the route table, so a call
 * costs Set and range lookups, never parsing.
 */
export interface AccessRules {
  /** Empty: any address. */
  ranges: readonly Range[];
  /** Empty: no CORS (and any Origin, as before rules existed). */
  origins: ReadonlySet<string>;
  refused: ReadonlySet<string>;
  /** The owner's rate, or undefined for the operator's. */
  ratePerSecond: number | undefined;
  /** The owner's answer bound, or undefined for the operator's. */
  maxAnswerBytes: number | undefined;
}

/** The rules of a route; undefined when its owner set none that restrict anything. */
export function compileAccess(access: NodeAccess | undefined): AccessRules | undefined {
  if (!access) return undefined;
  const { ipAllowlist, originAllowlist, refusedMethods, ratePerSecond, maxAnswerBytes } = access;
  if (ipAllowlist.length + originAllowlist.length + refusedMethods.length === 0 && ratePerSecond === null && maxAnswerBytes === null) return undefined;
  return {
    ranges: ipAllowlist.map((cidr) => ipaddr.parseCIDR(cidr)),
    origins: new Set(originAllowlist),
    refused: new Set(refusedMethods),
    ratePerSecond: ratePerSecond ?? undefined,
    maxAnswerBytes: maxAnswerBytes ?? undefined,
  };
}

/**
 * Whether the client address may call the node. The peer of a dual-stack socket is written
 * `::ffff:a.b.c.d`: ipaddr.js's `process` makes it the IPv4 address the owner wrote rules for.
 * An address that cannot be parsed is outside every list.
 */
export function allowsAddress(rules: AccessRules | undefined, address: string): boolean {
  if (!rules || rules.ranges.length === 0) return true;
  // A client calls from the same few addresses: each rules object remembers its answers, so a
  // call costs a lookup, not a parse. New rules (a change) start with no answers.
  let answers = addressAnswers.get(rules);
  if (!answers) {
    answers = new Map();
    addressAnswers.set(rules, answers);
  }
  let allowed = answers.get(address);
  if (allowed === undefined) {
    allowed = matchesRanges(rules.ranges, address);
    if (answers.size >= ADDRESSES_REMEMBERED) answers.clear();
    answers.set(address, allowed);
  }
  return allowed;
}

/** Addresses whose answer one rules object remembers; past it, it starts again (a caller cannot grow it). */
const ADDRESSES_REMEMBERED = 1024;
const addressAnswers = new WeakMap<AccessRules, Map<string, boolean>>();

function matchesRanges(ranges: readonly Range[], address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return false;
  }
  return ranges.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
}

/**
 * The platform's policy with the owner's refused names on top: a name the owner refuses is
 * refused on purpose (-32601, `refusedByOwner`), whatever the platform allows; the rest as the
 * platform decides.
 */
export class OwnerPolicy implements CallPolicy {
  readonly dialect: CallPolicy['dialect'];

  constructor(
    readonly platform: CallPolicy,
    private readonly refused: ReadonlySet<string>,
  ) {
    this.dialect = platform.dialect;
  }

  verdict(method: string): Verdict {
    return this.verdictOf(normaliseMethod(method));
  }

  verdictOf(name: string): Verdict {
    if (this.refused.has(name)) return 'refusedByOwner';
    return this.platform.verdictOf(name);
  }

  /** The owner's refused names count under their name (at most 200 per node, set by the owner, not the caller). */
  usageName(name: string): string | undefined {
    return this.refused.has(name) ? name : this.platform.usageName(name);
  }
}

const ownerPolicies = new WeakMap<AccessRules, OwnerPolicy>();

/**
 * The policy a node's calls are checked against: the platform's (for a dev node, its dev policy),
 * or with its owner's refusals on top, made once per rules (a node's rules belong to one route,
 * whose dev flag is the node's; a different platform policy makes a new one all the same).
 */
export function policyFor(platform: CallPolicy, rules: AccessRules | undefined): CallPolicy {
  if (!rules || rules.refused.size === 0) return platform;
  let policy = ownerPolicies.get(rules);
  if (policy?.platform !== platform) {
    policy = new OwnerPolicy(platform, rules.refused);
    ownerPolicies.set(rules, policy);
  }
  return policy;
}

/**
 * A node's rate and burst: the operator's, or the owner's lower rate with the burst scaled
 * alike (the operator's burst is so many seconds of its rate), so a lowered rate refuses sooner.
 */
export function limitsOf(rules: AccessRules | undefined, operator: { ratePerSecond: number; burst: number }): { ratePerSecond: number; burst: number } {
  const rate = rules?.ratePerSecond;
  if (rate === undefined || rate >= operator.ratePerSecond) return operator;
  return { ratePerSecond: rate, burst: Math.max(1, Math.ceil((operator.burst * rate) / operator.ratePerSecond)) };
}
