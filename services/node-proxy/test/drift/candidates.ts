/**
 * Names a node program might serve as JSON-RPC methods, read from its own files: every one is then
 * called (test/drift/served-methods.ts) and kept only if the node does not answer "method not found",
 * so a generous list costs time, never a false finding. Hidden methods (not in `help`, not in any
 * documentation) are found this way too.
 */

/** Longest method name looked for. */
const MAX_NAME = 50;

/**
 * Bitcoin-family names (`getblockcount`): every lower-case word of the binary's strings, and every
 * suffix of it, since a linker may store `stop` as the tail of a longer string that ends the same.
 */
export function bitcoinCandidates(text: string): Set<string> {
  const names = new Set<string>();
  for (const word of text.match(/[a-z0-9]{3,}/g) ?? []) {
    if (word.length > MAX_NAME) continue;
    for (let start = 0; start <= word.length - 3; start++) if (/[a-z]/.test(word[start]!)) names.add(word.slice(start));
  }
  return names;
}

/**
 * Names as written in a script's source (`info.getNodeID`, `eth_chainId`, `getblockcount`): string
 * literals there are whole, so whole words are enough.
 */
export function scriptCandidates(text: string): Set<string> {
  return new Set(text.match(/\b[a-z][a-z0-9]*(?:[._][A-Za-z0-9_]+)?\b/g)?.filter((name) => name.length <= MAX_NAME) ?? []);
}

/** Runs of identifier characters, where a compiled program keeps its method names. */
function identifierRuns(text: string): string[] {
  return text.match(/[A-Za-z0-9_]{4,}/g) ?? [];
}

/** The namespaces (`eth`, `tenderly`) that begin a run of the binary as `namespace_x`. */
export function namespacesIn(text: string): Set<string> {
  const namespaces = new Set<string>();
  for (const run of identifierRuns(text)) {
    const match = /^([a-z][a-z0-9]{1,11})_[a-z]/.exec(run);
    if (match) namespaces.add(match[1]!);
  }
  return namespaces;
}

/**
 * Ethereum-style names (`namespace_method`) in a compiled binary, where string constants lie end to
 * end without separators (anvil's `...hardhat_setBalancetenderly_setBalance...`). A name starts
 * where a known namespace and `_` begin; with `everyEnd` false it ends where the next such start
 * or the run does (cheap, and enough to find each namespace in use), with `everyEnd` true at every
 * length, for the namespaces given, since the text after a name may be any other string.
 */
export function namespacedCandidates(text: string, namespaces: ReadonlySet<string>, everyEnd: boolean): Set<string> {
  const names = new Set<string>();
  for (const run of identifierRuns(text)) {
    const starts: number[] = [];
    for (let at = run.indexOf('_'); at !== -1; at = run.indexOf('_', at + 1)) {
      if (!/[a-z]/.test(run[at + 1] ?? '')) continue;
      for (let length = 2; length <= 12 && length <= at; length++) if (namespaces.has(run.slice(at - length, at))) starts.push(at - length);
    }
    starts.sort((a, b) => a - b);
    for (const start of starts) {
      const ends = everyEnd ? range(start + 3, Math.min(run.length, start + MAX_NAME)) : [...starts.filter((end) => end > start), run.length];
      for (const end of ends) if (end - start <= MAX_NAME && run.slice(start, end).includes('_')) names.add(run.slice(start, end));
    }
  }
  return names;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, index) => from + index);
}

/**
 * Go programs (geth, avalanchego) serve the exported methods of their API types under a namespace,
 * with the first letter lower-cased (`GetBalance` in `eth`: `eth_getBalance`; avalanchego's
 * `platform.getHeight`): every method name of the binary's symbol table, in every namespace given.
 */
export function goCandidates(text: string, namespaces: Iterable<string>, separator: '_' | '.'): Set<string> {
  const methods = new Set<string>();
  for (const match of text.matchAll(/\)\.([A-Z][A-Za-z0-9]{1,48})(?![A-Za-z0-9])/g)) methods.add(match[1]!.charAt(0).toLowerCase() + match[1]!.slice(1));
  const names = new Set<string>();
  for (const namespace of namespaces) for (const method of methods) names.add(`${namespace}${separator}${method}`);
  return names;
}
