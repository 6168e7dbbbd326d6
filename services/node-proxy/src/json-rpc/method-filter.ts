import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Family } from '../routing/interfaces';

const ruleFileSchema = z.object({
  family: z.enum(['bitcoin', 'ethereum', 'avalanche']),
  description: z.string(),
  groups: z
    .array(
      z.object({
        name: z.string().min(1),
        why: z.string().min(1),
        sources: z.array(z.string().min(1)).min(1),
        methods: z.array(z.string().regex(/^[a-z0-9_.]+\*?$/, 'a lower-case method name, or a prefix ending in *')).min(1),
      }),
    )
    .min(1),
});

/** How each family's nodes answer a request they cannot read at all, so the proxy's own errors look like the node's. */
const DIALECTS: Record<Family, '1.0' | '2.0'> = { bitcoin: '1.0', ethereum: '2.0', avalanche: '2.0' };

/**
 * Which JSON-RPC methods a chain family's nodes refuse: exact names and name prefixes (`personal_*`,
 * `admin.*`), compared in lower case, so `STOP` and `Stop` are `stop` to the filter as they may be
 * to a node.
 */
export class MethodFilter {
  private readonly exact: Set<string>;
  private readonly prefixes: string[];

  /** @param dialect the JSON-RPC form of the proxy's errors to requests it cannot read (Bitcoin Core: 1.0). */
  constructor(
    methods: readonly string[],
    readonly dialect: '1.0' | '2.0' = '1.0',
  ) {
    this.exact = new Set(methods.filter((method) => !method.endsWith('*')));
    this.prefixes = methods.filter((method) => method.endsWith('*')).map((method) => method.slice(0, -1));
  }

  blocks(method: string): boolean {
    // Upper-cased first: avalanchego upper-cases the first letter after the dot with Go's
    // unicode.ToUpper, which makes `ı` an `I` and `ſ` an `S` (`avm.ſend` is `avm.Send` to it), and
    // JavaScript's toUpperCase folds them the same way; plain lower-casing would let them through.
    const name = method.toUpperCase().toLowerCase();
    return this.exact.has(name) || this.prefixes.some((prefix) => name.startsWith(prefix));
  }
}

/** Reads `<dir>/<family>.json` for every family; a missing or malformed file stops start-up naming it. */
export function loadMethodFilters(dir: string): Record<Family, MethodFilter> {
  const load = (family: Family): MethodFilter => {
    const file = path.join(dir, `${family}.json`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new Error(`method rules ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const rules = ruleFileSchema.safeParse(parsed);
    if (!rules.success) throw new Error(`method rules ${file}: ${z.prettifyError(rules.error)}`);
    if (rules.data.family !== family) throw new Error(`method rules ${file}: family is ${rules.data.family}, expected ${family}`);
    return new MethodFilter(
      rules.data.groups.flatMap((group) => group.methods),
      DIALECTS[family],
    );
  };
  return { bitcoin: load('bitcoin'), ethereum: load('ethereum'), avalanche: load('avalanche') };
}
