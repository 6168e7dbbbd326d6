/**
 * The node-proxy's per-call method check on its own (no network): `checkRequest` with the shipped
 * ethereum policy, on the proxy benchmark's call (`eth_blockNumber`), a batch of 100 allowed calls,
 * and a call in neither list (refused and counted as unknown). Rounds alternate; medians of CPU
 * time per call are printed. `ROUNDS` (default 7) and `CALLS` (checks per round, default 200,000).
 */
import { checkRequest, DEFAULT_FILTER_DIR, loadMethodPolicies, type MethodPolicy } from '@cloud/node-proxy';

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const CALLS = Number(process.env.CALLS ?? 200_000);

const policy = loadMethodPolicies(DEFAULT_FILTER_DIR).ethereum;
const call = (id: number, method: string) => ({ jsonrpc: '2.0', id, method, params: [] });
const BODIES: [string, string, number][] = [
  ['one allowed call (eth_blockNumber)', JSON.stringify(call(1, 'eth_blockNumber')), 1],
  ['batch of 100 allowed calls', JSON.stringify(Array.from({ length: 100 }, (_, id) => call(id, id % 2 ? 'eth_getBalance' : 'eth_blockNumber'))), 100],
  ['one call in neither list', JSON.stringify(call(1, 'foo_bar')), 1],
];

/** Nanoseconds of CPU per call over `runs` checks of `body`. */
function measure(checked: MethodPolicy, body: string, callsPerBody: number, runs: number): number {
  const start = process.cpuUsage();
  for (let index = 0; index < runs; index++) checkRequest(body, checked, 1000);
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / (runs * callsPerBody);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const results = BODIES.map(() => [] as number[]);
for (let round = 0; round < ROUNDS; round++) BODIES.forEach(([, body, calls], index) => results[index]!.push(measure(policy, body, calls, CALLS / calls)));
process.stdout.write('| request | CPU per call (ns), median |\n|---|---|\n');
BODIES.forEach(([name], index) => process.stdout.write(`| ${name} | ${median(results[index]!).toFixed(0)} |\n`));
