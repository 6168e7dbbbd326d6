import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// program.ts imports the command modules, never the reverse: a cycle among the CLI's modules
// makes what one module sees of another depend on which was loaded first.

const SRC = path.join(__dirname, '..', 'src');

/** Each source file (relative to src/) with the source files it imports. */
function importGraph(): Map<string, string[]> {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(path.join(SRC, file), 'utf8');
    const targets = [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((match) => path.join(path.dirname(file), `${match[1]!}.ts`));
    graph.set(
      file,
      targets.filter((target) => files.includes(target)),
    );
  }
  return graph;
}

/** The cycles found by a depth-first walk, each as the files around it. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const walk = (file: string, trail: string[]): void => {
    const at = trail.indexOf(file);
    if (at >= 0) return void cycles.push([...trail.slice(at), file]);
    if (done.has(file)) return;
    for (const target of graph.get(file) ?? []) walk(target, [...trail, file]);
    done.add(file);
  };
  for (const file of graph.keys()) walk(file, []);
  return cycles;
}

test('the CLI has no import cycle', () => {
  expect(cyclesOf(importGraph())).toEqual([]);
});

test('the cycle finder finds a cycle', () => {
  expect(
    cyclesOf(
      new Map([
        ['a.ts', ['b.ts']],
        ['b.ts', ['a.ts']],
      ]),
    ),
  ).toEqual([['a.ts', 'b.ts', 'a.ts']]);
});
