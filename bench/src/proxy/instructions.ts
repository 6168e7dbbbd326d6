/**
 * The node-proxy's cost per request in machine instructions, counted by valgrind's callgrind: a
 * figure that stays put whatever else the machine runs, unlike CPU time on a shared, loaded one.
 *
 *   npm run bench:proxy-instructions -w bench
 *   BASELINE_ROOT=<a built checkout of an earlier commit> npm run bench:proxy-instructions -w bench
 *
 * The synthetic upstream runs as usual; each proxy variant runs in its own node-proxy child
 * (`node-proxy.ts`) under `valgrind --tool=callgrind`: today's proxy, today's with the access rules
 * every call passes (`BENCH_ACCESS_RULES=1`), the baseline's from BASELINE_ROOT if set, and the
 * bare undici `stream()` pass-through (`undici-stream`: what the proxy adds is the difference). For each
 * scenario (requests.ts) this process sends WARMUP_CALLS requests one after another over one
 * keep-alive connection so the JIT settles, zeroes the counters (`callgrind_control -z`), sends
 * CALLS requests, dumps (`callgrind_control -d`), and does that again: two windows, so a JIT that had
 * not settled shows as a difference between them (the batch: a fifth of the warm-up, a third of the
 * window). The figure is the main thread's instructions in the second window over its requests;
 * start-up, warm-up and shutdown are outside it. Every answer is checked.
 *
 * The main thread runs the proxy's JavaScript, the HTTP parsing and the young-generation GC; the
 * other threads (V8's optimising compiler, its concurrent marking, libuv's pool) are counted apart
 * and shown beside it, as compilation that has not finished moves them between windows. Under
 * callgrind a request takes ~50× longer, so timer work weighs more per request than at full speed.
 * Not counted: the kernel's side of the sockets.
 *
 * Environment: WARMUP_CALLS (1500), CALLS (300 per window), ROUNDS (2: each variant started afresh
 * that often, the order rotating), TARGETS (comma-separated subset of node-proxy-baseline,
 * node-proxy, node-proxy-access, undici-stream), SCENARIOS (small, batch), OUT_DIR (where the callgrind files are
 * kept for `callgrind_annotate`; a new temporary folder unless told), JSON_OUT. Markdown goes to
 * stdout, progress to stderr.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'undici';
import { startChild, type RunningChild } from './child';
import { SCENARIOS, type Scenario } from './requests';
import { JSON_HEADERS, nodeProxyHeaders } from './targets';
import { integerSetting, listSetting } from './settings';

const VARIANTS = ['node-proxy-baseline', 'node-proxy', 'node-proxy-access', 'undici-stream'] as const;
type Variant = (typeof VARIANTS)[number];

const WARMUP_CALLS = integerSetting('WARMUP_CALLS', 1500);
const CALLS = integerSetting('CALLS', 300);
const ROUNDS = integerSetting('ROUNDS', 2);
const BASELINE_ROOT = process.env.BASELINE_ROOT || undefined;
const OUT_DIR = process.env.OUT_DIR || mkdtempSync(path.join(os.tmpdir(), 'bench-proxy-callgrind-'));
const JSON_OUT = process.env.JSON_OUT;

const thousands = (value: number) => Math.round(value).toLocaleString('en-US');
const print = (line = '') => process.stdout.write(`${line}\n`);
const progress = (line: string) => process.stderr.write(`${line}\n`);

function commitOf(root: string): string {
  try {
    return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return root;
  }
}

const LABELS: Record<Variant, string> = {
  'node-proxy-baseline': `baseline (${BASELINE_ROOT ? commitOf(BASELINE_ROOT) : 'none'})`,
  'node-proxy': `today (${commitOf(path.join(__dirname, '..', '..', '..'))}), no access rules`,
  'node-proxy-access': 'today, access rules every call passes (`BENCH_ACCESS_RULES=1`)',
  'undici-stream': 'bare undici `stream()` pass-through (checks nothing)',
};

/** Starts the bench's child for `variant` (a node-proxy, or the bare pass-through) under callgrind, counting nothing until told. */
function startUnderCallgrind(variant: Variant, upstreamPort: number, round: number): Promise<RunningChild> {
  const prefix = path.join(OUT_DIR, `${variant}.round${round}`);
  const valgrind = [
    '--tool=callgrind',
    // V8 writes machine code into memory it then runs: make valgrind notice code that changed.
    '--smc-check=all-non-file',
    '--dump-instr=no',
    // One file per thread: the main thread's count is the steady-state cost of a request; the others
    // (V8's optimising compiler, its concurrent GC, libuv's pool) are reported beside it.
    '--separate-threads=yes',
    `--callgrind-out-file=${prefix}.callgrind.%p`,
    `--log-file=${prefix}.valgrind.%p.log`,
    process.execPath,
  ];
  const env = { ...process.env };
  if (variant === 'node-proxy-access') env.BENCH_ACCESS_RULES = '1';
  else delete env.BENCH_ACCESS_RULES;
  const options = { execPath: 'valgrind', env, startSeconds: 600 };
  if (variant === 'undici-stream') return startChild('pass-through', [variant, String(upstreamPort)], valgrind, options);
  const args = [String(upstreamPort), ...(variant === 'node-proxy-baseline' ? [BASELINE_ROOT!] : [])];
  return startChild('node-proxy', args, valgrind, options);
}

function callgrindControl(option: '-z' | '-d', pid: number): void {
  // vgdb reports every command on stderr; a failure throws with it.
  execFileSync('callgrind_control', [option, String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** One file's instructions (its `summary:` line), once callgrind wrote it all; undefined until then. */
function summaryOf(file: string): number | undefined {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const summary = /^summary: (\d+)/m.exec(text);
  return summary && /^totals: /m.test(text) ? Number(summary[1]) : undefined;
}

/**
 * The instructions in the `dump`th dump callgrind wrote for `pid`: the main thread's (file `-01`)
 * and all threads' together.
 */
async function dumpedInstructions(variant: Variant, round: number, pid: number, dump: number): Promise<{ file: string; main: number; all: number }> {
  const prefix = `${variant}.round${round}.callgrind.${pid}.${dump}-`;
  const file = path.join(OUT_DIR, `${prefix}01`);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const main = summaryOf(file);
    const counts = readdirSync(OUT_DIR)
      .filter((name) => name.startsWith(prefix))
      .map((name) => summaryOf(path.join(OUT_DIR, name)));
    if (main !== undefined && counts.every((count) => count !== undefined)) return { file, main, all: counts.reduce((sum, count) => sum + count!, 0) };
    if (Date.now() > deadline) throw new Error(`callgrind did not write ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Sends `count` requests one after another, checking each answer. */
async function send(client: Client, headers: Record<string, string>, scenario: Scenario, count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const { statusCode, body } = await client.request({ path: '/', method: 'POST', headers, body: scenario.body });
    const text = await body.text();
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      answer = undefined;
    }
    if (statusCode !== 200 || !scenario.check(answer))
      throw new Error(`wrong answer to the ${scenario.name} request: HTTP ${statusCode} ${text.slice(0, 300)}`);
  }
}

interface Window {
  /** Instructions per request: the main thread's, and all threads' together. */
  main: number;
  all: number;
  file: string;
}

interface Measurement {
  variant: Variant;
  scenario: string;
  round: number;
  requests: number;
  /** In order; the last is the figure, the first shows whether the JIT had settled. */
  windows: Window[];
}

/** Warm-up and window sizes in requests: the batch's are a fifth and a third (50 calls each, and the shared path is warm by then). */
function sizesOf(scenario: Scenario): { warmup: number; requests: number } {
  return scenario.name === 'batch' ? { warmup: Math.ceil(WARMUP_CALLS / 5), requests: Math.ceil(CALLS / 3) } : { warmup: WARMUP_CALLS, requests: CALLS };
}

async function measureVariant(variant: Variant, upstreamPort: number, round: number, scenarios: Scenario[]): Promise<Measurement[]> {
  const started = Date.now();
  const proxy = await startUnderCallgrind(variant, upstreamPort, round);
  progress(`round ${round} ${variant}: started under callgrind in ${((Date.now() - started) / 1000).toFixed(0)} s (pid ${proxy.pid})`);
  const client = new Client(`http://127.0.0.1:${proxy.port}`, {
    keepAliveTimeout: 600_000,
    keepAliveMaxTimeout: 600_000,
    headersTimeout: 120_000,
    bodyTimeout: 120_000,
  });
  const headers = variant === 'undici-stream' ? JSON_HEADERS : nodeProxyHeaders(proxy.port);
  const results: Measurement[] = [];
  let dumps = 0;
  try {
    for (const scenario of scenarios) {
      const { warmup, requests } = sizesOf(scenario);
      const warmupStarted = Date.now();
      await send(client, headers, scenario, warmup);
      progress(`round ${round} ${variant} ${scenario.name}: warm-up of ${warmup} requests took ${((Date.now() - warmupStarted) / 1000).toFixed(0)} s`);
      const measurement: Measurement = { variant, scenario: scenario.name, round, requests, windows: [] };
      callgrindControl('-z', proxy.pid);
      for (let window = 0; window < 2; window++) {
        await send(client, headers, scenario, requests);
        callgrindControl('-d', proxy.pid);
        const { file, main, all } = await dumpedInstructions(variant, round, proxy.pid, ++dumps);
        measurement.windows.push({ main: main / requests, all: all / requests, file });
      }
      results.push(measurement);
      progress(
        `round ${round} ${variant} ${scenario.name}: main thread ${measurement.windows.map((window) => thousands(window.main)).join(' then ')}, ` +
          `all threads ${measurement.windows.map((window) => thousands(window.all)).join(' then ')} instructions per request`,
      );
    }
  } finally {
    await client.close();
    await proxy.stop();
  }
  return results;
}

async function main(): Promise<void> {
  const variants = listSetting<Variant>('TARGETS', VARIANTS).filter((variant) => {
    if (variant !== 'node-proxy-baseline' || BASELINE_ROOT) return true;
    progress('node-proxy-baseline: skipped, no BASELINE_ROOT (a built checkout of an earlier commit)');
    return false;
  });
  const scenarios = listSetting(
    'SCENARIOS',
    SCENARIOS.map((scenario) => scenario.name),
  ).map((name) => SCENARIOS.find((scenario) => scenario.name === name)!);
  mkdirSync(OUT_DIR, { recursive: true });
  progress(`proxy instruction counts: callgrind files in ${OUT_DIR}`);
  const began = new Date();
  const measured: Measurement[] = [];
  const upstream = await startChild('upstream');
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const order = variants.map((_, index) => variants[(index + round - 1) % variants.length]!);
      for (const variant of order) measured.push(...(await measureVariant(variant, upstream.port, round, scenarios)));
    }
  } finally {
    await upstream.stop();
  }

  const valgrindVersion = execFileSync('valgrind', ['--version'], { encoding: 'utf8' }).trim();
  print('## Node-proxy: instructions per request (callgrind)');
  print();
  print(
    `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'unknown'}, Linux ${os.release()}, Node.js ${process.version}, ${valgrindVersion}; ` +
      `${began.toISOString().slice(0, 16).replace('T', ' ')} UTC. Per scenario: a warm-up, then two windows (small: ${WARMUP_CALLS} and ${CALLS} requests; ` +
      `batch: ${sizesOf(SCENARIOS[1]!).warmup} and ${sizesOf(SCENARIOS[1]!).requests}), one request at a time over one keep-alive connection. ` +
      "Figures: the proxy's main thread in the second window (the first in brackets); all threads (the second window) in the last column.",
  );
  for (const scenario of scenarios) {
    print();
    print(`### ${scenario.title}`);
    print();
    print(`| proxy | ${Array.from({ length: ROUNDS }, (_, index) => `round ${index + 1}`).join(' | ')} | vs baseline | over the pass-through | all threads |`);
    print(`|---|${'--:|'.repeat(ROUNDS)}--:|--:|--:|`);
    const figure = (variant: Variant) => measured.filter((entry) => entry.variant === variant && entry.scenario === scenario.name);
    const mean = (entries: Measurement[]) => entries.reduce((sum, entry) => sum + entry.windows.at(-1)!.main, 0) / entries.length;
    const baseline = figure('node-proxy-baseline');
    const passThrough = figure('undici-stream');
    for (const variant of variants) {
      const entries = figure(variant);
      const cells = entries.map((entry) => `${thousands(entry.windows.at(-1)!.main)} (${thousands(entry.windows[0]!.main)})`);
      const all = entries.map((entry) => thousands(entry.windows.at(-1)!.all)).join(', ');
      const proxy = variant !== 'undici-stream';
      const ratio = baseline.length > 0 && proxy && variant !== 'node-proxy-baseline' ? `${((mean(entries) / mean(baseline) - 1) * 100).toFixed(1)} %` : '';
      const over = passThrough.length > 0 && proxy ? `+${thousands(mean(entries) - mean(passThrough))}` : '';
      print(`| ${LABELS[variant]} | ${cells.join(' | ')} | ${ratio ? (ratio.startsWith('-') ? ratio : `+${ratio}`) : ''} | ${over} | ${all} |`);
    }
  }
  if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify({ began, warmupCalls: WARMUP_CALLS, calls: CALLS, outDir: OUT_DIR, measured }, null, 2)}\n`);
  progress(`callgrind files kept in ${OUT_DIR}: ${readdirSync(OUT_DIR).filter((name) => /\.callgrind\.\d+\.\d+$/.test(name)).length} dumps`);
}

main().then(
  () => undefined,
  (error: unknown) => {
    progress(`proxy instruction benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
