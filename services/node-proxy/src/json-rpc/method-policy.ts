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
  })
  .refine((rules) => rules.allowed.length + rules.refused.length > 0, 'the file has no groups of methods');

/** What the proxy does with a call: forward it, refuse it on purpose, or refuse it as not offered. */
export type Verdict = 'allowed' | 'refused' | 'unknown';

/** A family's lists, as names and `prefix*` entries in lower case. */
export interface MethodLists {
  allowed: readonly string[];
  refused: readonly string[];
}

/** How each family's nodes answer a request they cannot read at all, so the proxy's own errors look like the node's. */
const DIALECTS: Record<Family, '1.0' | '2.0'> = { bitcoin: '1.0', ethereum: '2.0', avalanche: '2.0' };

/** What a request's calls are checked against: a family's policy, or a node's with its owner's refusals on top. */
export interface CallPolicy {
  readonly dialect: '1.0' | '2.0';
  verdict(method: string): Verdict;
  /** The verdict of a name `normaliseMethod` made. */
  verdictOf(name: string): Verdict;
}

/**
 * Which JSON-RPC methods a family's nodes serve to users: only the allowed ones (exact names).
 * Refused names and prefixes (`personal_*`, `admin.*`) say which are kept out on purpose; a name
 * in neither list is refused too, as unknown. Both lookups are Set lookups; the few refused
 * prefixes are only tried for a name that is not allowed.
 */
export class MethodPolicy implements CallPolicy {
  private readonly allowed: Set<string>;
  private readonly refusedExact: Set<string>;
  private readonly refusedPrefixes: string[];

  /** @param dialect the JSON-RPC form of the proxy's errors to requests it cannot read (Bitcoin Core: 1.0). */
  constructor(
    lists: MethodLists,
    readonly dialect: '1.0' | '2.0' = '1.0',
  ) {
    this.allowed = new Set(lists.allowed);
    this.refusedExact = new Set(lists.refused.filter((method) => !method.endsWith('*')));
    this.refusedPrefixes = lists.refused.filter((method) => method.endsWith('*')).map((method) => method.slice(0, -1));
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
  const { family, allowed, refused } = rules.data;
  return { file, family, allowed: allowed.flatMap((each) => each.methods), refused: refused.flatMap((each) => each.methods) };
}

/** One layer's lists for a family (the shipped files, or the operator's), refusing a name both allowed and refused in it. */
function layer(files: readonly RuleFile[], family: Family): MethodLists {
  const mine = files.filter((rules) => rules.family === family);
  const allowed = mine.flatMap((rules) => rules.allowed);
  const refused = mine.flatMap((rules) => rules.refused);
  for (const name of allowed) {
    const entry = refused.find((each) => covers(each, name));
    if (entry) throw new Error(`method rules ${mine.map((rules) => rules.file).join(', ')}: ${name} is both allowed and refused (${entry})`);
  }
  return { allowed, refused };
}

/**
 * The operator's lists on top of the shipped ones: what the operator allows is allowed even if the
 * shipped files refuse it, and what the operator refuses is no longer allowed.
 */
function mergeLists(shipped: MethodLists, operator: MethodLists): MethodLists {
  return {
    allowed: [...shipped.allowed.filter((name) => !operator.refused.some((entry) => covers(entry, name))), ...operator.allowed],
    refused: [...shipped.refused, ...operator.refused],
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
export function loadMethodLists(shippedDir: string, operatorDir?: string): Record<Family, MethodLists> {
  const shipped = shippedFiles(shippedDir);
  const operator = operatorDir ? operatorFiles(operatorDir) : [];
  const lists = (family: Family) => mergeLists(layer(shipped, family), layer(operator, family));
  return { bitcoin: lists('bitcoin'), ethereum: lists('ethereum'), avalanche: lists('avalanche') };
}

/** Each family's policy; a missing or malformed file, or a name both allowed and refused in one layer, stops start-up naming it. */
export function loadMethodPolicies(shippedDir: string, operatorDir?: string): Record<Family, MethodPolicy> {
  const lists = loadMethodLists(shippedDir, operatorDir);
  return {
    bitcoin: new MethodPolicy(lists.bitcoin, DIALECTS.bitcoin),
    ethereum: new MethodPolicy(lists.ethereum, DIALECTS.ethereum),
    avalanche: new MethodPolicy(lists.avalanche, DIALECTS.avalanche),
  };
}
