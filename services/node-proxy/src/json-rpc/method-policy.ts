import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Family } from '../routing/interfaces';

const FAMILIES = ['bitcoin', 'ethereum', 'avalanche'] as const satisfies readonly Family[];

const group = (methods: z.ZodString) =>
  z.object({
    name: z.string().min(1),
    why: z.string().min(1),
    sources: z.array(z.string().min(1)).min(1),
    methods: z.array(methods).min(1),
    /**
     * Its methods change the chain or the node (send a transaction, mine, set state): a pool sends
     * such a call to one member and never retries it once bytes reached that member.
     */
    writes: z.boolean().optional(),
  });

/** Allowed names are exact: a prefix would let a future method of the namespace through unseen. */
const allowedName = z.string().regex(/^[a-z0-9_.]+$/, 'a lower-case method name (no prefixes in the allowed list)');
const refusedName = z.string().regex(/^[a-z0-9_.]+\*?$/, 'a lower-case method name, or a prefix ending in *');

const ruleFileSchema = z
  .object({
    family: z.enum(FAMILIES),
    description: z.string(),
    allowed: z.array(group(allowedName)).default([]),
    refused: z.array(group(refusedName)).default([]),
    /** The dev layer: allowed only on a node whose route says `dev: true` (a private dev chain), refused on every other. */
    dev: z.array(group(allowedName)).default([]),
    /** What the dev layer leaves out on purpose, with why: refused on dev nodes too. */
    devExcluded: z.array(group(refusedName)).default([]),
  })
  .refine((rules) => rules.allowed.length + rules.refused.length + rules.dev.length + rules.devExcluded.length > 0, 'the file has no groups of methods');

/**
 * What the proxy does with a call: forward it, refuse it on purpose (the platform's lists), refuse
 * it because the node's owner refused it (an access rule), or refuse it as not offered.
 */
export type Verdict = 'allowed' | 'refused' | 'refusedByOwner' | 'unknown';

/**
 * A family's lists, as names and `prefix*` entries in lower case. `dev` (exact names) is allowed on
 * dev nodes only; `devExcluded` names what the dev layer leaves out, refused on dev nodes as well.
 */
export interface MethodLists {
  allowed: readonly string[];
  refused: readonly string[];
  dev?: readonly string[];
  devExcluded?: readonly string[];
  /** Allowed or dev-layer names whose group says `writes`. */
  writes?: readonly string[];
}

/** How each family's nodes answer a request they cannot read at all, so the proxy's own errors look like the node's. */
const DIALECTS: Record<Family, '1.0' | '2.0'> = { bitcoin: '1.0', ethereum: '2.0', avalanche: '2.0' };

/** What a request's calls are checked against: a family's policy, or a node's with its owner's refusals on top. */
export interface CallPolicy {
  readonly dialect: '1.0' | '2.0';
  verdict(method: string): Verdict;
  /** The verdict of a name `normaliseMethod` made. */
  verdictOf(name: string): Verdict;
  /**
   * What usage counts a refused call of `name` (made by `normaliseMethod`) under: the name when the
   * lists have it exactly, the refused prefix that covers it (`personal_*`), or undefined when no
   * list knows it, so a caller cannot grow the usage tables by making names up.
   */
  usageName(name: string): string | undefined;
}

/**
 * Which JSON-RPC methods a family's nodes serve to users: only the allowed ones (exact names).
 * Refused names and prefixes (`personal_*`, `admin.*`) say which are kept out on purpose; a name
 * in neither list is refused too, as unknown. Both lookups are Set lookups; the few refused
 * prefixes are only tried for a name that is not allowed.
 *
 * A policy is the one for nodes on their image's real network: the dev layer's names are refused
 * in it. `dev` is the policy for nodes on a private dev chain (the dev layer allowed too), made
 * once here, so a call picks one of the two by its route's `dev` and allocates nothing.
 */
export class MethodPolicy implements CallPolicy {
  private readonly allowed: Set<string>;
  private readonly refusedExact: Set<string>;
  private readonly refusedPrefixes: string[];
  private readonly writes: ReadonlySet<string>;
  /** The policy of dev nodes: this one with the dev layer allowed (itself when there is no dev layer). */
  readonly dev: MethodPolicy;

  /** @param dialect the JSON-RPC form of the proxy's errors (the family's nodes': Bitcoin Core and Litecoin Core 0.21 answer 1.0 to every call). */
  constructor(
    lists: MethodLists,
    readonly dialect: '1.0' | '2.0' = '1.0',
  ) {
    const dev = lists.dev ?? [];
    const refused = [...lists.refused, ...(lists.devExcluded ?? [])];
    this.allowed = new Set(lists.allowed);
    // On a real network the dev layer is refused on purpose, whatever the other lists say.
    this.refusedExact = new Set([...refused.filter((method) => !method.endsWith('*')), ...dev]);
    this.refusedPrefixes = refused.filter((method) => method.endsWith('*')).map((method) => method.slice(0, -1));
    this.writes = new Set(lists.writes);
    this.dev = dev.length === 0 ? this : new MethodPolicy({ allowed: [...lists.allowed, ...dev], refused, writes: lists.writes }, dialect);
  }

  /** This policy for a node on a private dev chain (`dev`) or on its image's real network. */
  forNode(dev: boolean | undefined): MethodPolicy {
    return dev === true ? this.dev : this;
  }

  verdict(method: string): Verdict {
    return this.verdictOf(normaliseMethod(method));
  }

  /** The verdict of a name `normaliseMethod` made. */
  verdictOf(name: string): Verdict {
    if (this.allowed.has(name)) return 'allowed';
    if (this.refusedExact.has(name) || this.refusedPrefixes.some((prefix) => name.startsWith(prefix))) return 'refused';
    return 'unknown';
  }

  /** Whether an allowed name (as `normaliseMethod` makes it) writes: its group says `writes` (a pool never retries it). */
  isWrite(name: string): boolean {
    return this.writes.has(name);
  }

  usageName(name: string): string | undefined {
    if (this.allowed.has(name) || this.refusedExact.has(name)) return name;
    const prefix = this.refusedPrefixes.find((each) => name.startsWith(each));
    return prefix === undefined ? undefined : `${prefix}*`;
  }
}

/**
 * A method name as the lists write it. Upper-cased first: avalanchego upper-cases the first letter
 * after the dot with Go's unicode.ToUpper, which makes `ı` an `I` and `ſ` an `S` (`avm.ſend` is
 * `avm.Send` to it), and JavaScript's toUpperCase folds them the same way; plain lower-casing
 * would let them through.
 */
export function normaliseMethod(method: string): string {
  return method.toUpperCase().toLowerCase();
}

/** Whether a refused entry (a name or a `prefix*`) covers `name`. */
function covers(entry: string, name: string): boolean {
  return entry.endsWith('*') ? name.startsWith(entry.slice(0, -1)) : entry === name;
}

interface RuleFile {
  file: string;
  family: Family;
  allowed: string[];
  refused: string[];
  dev: string[];
  devExcluded: string[];
  writes: string[];
}

function readRuleFile(file: string): RuleFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`method rules ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const rules = ruleFileSchema.safeParse(parsed);
  if (!rules.success) throw new Error(`method rules ${file}: ${z.prettifyError(rules.error)}`);
  const { family, allowed, refused, dev, devExcluded } = rules.data;
  const names = (groups: { methods: string[] }[]) => groups.flatMap((each) => each.methods);
  const writes = names([...allowed, ...dev].filter((each) => each.writes === true));
  return { file, family, allowed: names(allowed), refused: names(refused), dev: names(dev), devExcluded: names(devExcluded), writes };
}

type Lists = Required<MethodLists>;

/**
 * One layer's lists for a family (the shipped files, or the operator's), refusing a name both
 * allowed and refused in it, a dev-layer name the layer allows everywhere already, and one its
 * own dev exclusions cover. (A dev-layer name refused on real networks is what the layer is for.)
 */
function layer(files: readonly RuleFile[], family: Family): Lists {
  const mine = files.filter((rules) => rules.family === family);
  const lists = {
    allowed: mine.flatMap((rules) => rules.allowed),
    refused: mine.flatMap((rules) => rules.refused),
    dev: mine.flatMap((rules) => rules.dev),
    devExcluded: mine.flatMap((rules) => rules.devExcluded),
    writes: mine.flatMap((rules) => rules.writes),
  };
  const fail = (problem: string) => new Error(`method rules ${mine.map((rules) => rules.file).join(', ')}: ${problem}`);
  for (const name of lists.allowed) {
    const entry = lists.refused.find((each) => covers(each, name));
    if (entry) throw fail(`${name} is both allowed and refused (${entry})`);
  }
  for (const name of lists.dev) {
    if (lists.allowed.includes(name)) throw fail(`${name} is both allowed and in the dev layer`);
    const entry = lists.devExcluded.find((each) => covers(each, name));
    if (entry) throw fail(`${name} is both in the dev layer and excluded from it (${entry})`);
  }
  return lists;
}

/**
 * The operator's lists on top of the shipped ones: what the operator allows (or adds to the dev
 * layer) is allowed even if the shipped files refuse it, and what the operator refuses (or
 * excludes from the dev layer) is no longer allowed (on dev nodes either).
 */
function mergeLists(shipped: Lists, operator: Lists): Lists {
  const refusedByOperator = (name: string) => operator.refused.some((entry) => covers(entry, name));
  const excludedByOperator = (name: string) => refusedByOperator(name) || operator.devExcluded.some((entry) => covers(entry, name));
  return {
    allowed: [...shipped.allowed.filter((name) => !refusedByOperator(name)), ...operator.allowed],
    refused: [...shipped.refused, ...operator.refused],
    dev: [...shipped.dev.filter((name) => !excludedByOperator(name) && !operator.allowed.includes(name)), ...operator.dev],
    devExcluded: [...shipped.devExcluded, ...operator.devExcluded],
    writes: [...shipped.writes, ...operator.writes],
  };
}

/** The shipped `<family>.json` files, each required. */
function shippedFiles(dir: string): RuleFile[] {
  return FAMILIES.map((family) => {
    const rules = readRuleFile(path.join(dir, `${family}.json`));
    if (rules.family !== family) throw new Error(`method rules ${rules.file}: family is ${rules.family}, expected ${family}`);
    return rules;
  });
}

/** Every `*.json` file of the operator's folder, each naming its family. */
function operatorFiles(dir: string): RuleFile[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch (error) {
    throw new Error(`method rules ${dir}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return names.sort().map((name) => readRuleFile(path.join(dir, name)));
}

/** Each family's lists: the shipped files, with the operator's folder (PROXY_FILTER_DIR) on top when given. */
export function loadMethodLists(shippedDir: string, operatorDir?: string): Record<Family, Required<MethodLists>> {
  const shipped = shippedFiles(shippedDir);
  const operator = operatorDir ? operatorFiles(operatorDir) : [];
  const lists = (family: Family) => mergeLists(layer(shipped, family), layer(operator, family));
  return { bitcoin: lists('bitcoin'), ethereum: lists('ethereum'), avalanche: lists('avalanche') };
}

/**
 * Each family's policy (for real-network nodes; `.dev` for dev nodes); a missing or malformed
 * file, or a name both allowed and refused in one layer, stops start-up naming it.
 */
export function loadMethodPolicies(shippedDir: string, operatorDir?: string): Record<Family, MethodPolicy> {
  const lists = loadMethodLists(shippedDir, operatorDir);
  return {
    bitcoin: new MethodPolicy(lists.bitcoin, DIALECTS.bitcoin),
    ethereum: new MethodPolicy(lists.ethereum, DIALECTS.ethereum),
    avalanche: new MethodPolicy(lists.avalanche, DIALECTS.avalanche),
  };
}
