/**
 * The node-proxy benchmark. For each upstream (UPSTREAMS: the synthetic one, a fast local JSON-RPC
 * server; a real anvil node; a real Litecoin Core node, both run by the nodes service's local
 * driver), one run measures with the same autocannon settings: the upstream directly, through our
 * node-proxy (authentication, method filter and usage metering on) with TLS off and on, with one
 * and N worker processes, through nginx as a plain reverse proxy with one and N workers, and
 * (synthetic upstream only) through bare pass-throughs (undici's `request()` + `pipeline()`,
 * undici's `stream()` as the node-proxy uses it, node:http's client, and http-proxy if installed).
 * Then the read mix (read-mix.ts, issue 31): a real anvil and a real Litecoin Core node holding a
 * history, read with a front end's and an indexer's mix directly, through the proxy without and
 * with its cache. Then the start-up with ROUTES (100,000) routes (route-startup.ts).
 *
 *   npm run bench:proxy                                                      # from the repository root
 *   UPSTREAMS=synthetic ROUNDS=1 TARGETS=direct,node-proxy SCENARIOS=small npm run bench:proxy   # a quick look
 *
 * Every target runs in its own process (the upstream too); autocannon runs in this one. For each
 * scenario and target: WARMUP seconds of load that are thrown away, DURATION seconds with
 * CONNECTIONS connections as fast as the target answers (req/s, latency at full load), then
 * DURATION seconds with LATENCY_CONNECTIONS (one) connection: the latency a proxy adds when
 * nothing queues. (Not a fixed-rate run: autocannon's rate limit sends each second's requests in
 * one burst, so such a run measures queueing in the burst.) The order of the targets rotates each
 * round and the tables give the medians over ROUNDS; with node-proxy and undici-stream both measured,
 * a last table gives the CPU the proxy adds to a call over that bare pass-through (issue 30's
 * bounds). Markdown goes to stdout, progress to stderr;
 * JSON_OUT=<file> also writes every run's figures as JSON.
 *
 * Environment: UPSTREAMS (synthetic,anvil,litecoind; one whose software is missing is skipped with
 * the reason), CONNECTIONS (32), LITECOIND_CONNECTIONS (8: Litecoin Core refuses more than its
 * 4 RPC threads and queue of 16 take), DURATION (10), WARMUP (3), PIPELINING (1), LATENCY_CONNECTIONS
 * (1; 0: skip the latency runs), ROUNDS (3), TARGETS (comma-separated subset of direct,
 * node-proxy, node-proxy-tls, node-proxy-workers, node-proxy-baseline, nginx, nginx-workers,
 * undici, undici-stream, node-http, http-proxy; default all for the synthetic upstream, the first
 * six but the baseline for real nodes), SCENARIOS (names: small, batch; eth_blockNumber,
 * eth_getBlockByNumber, getblockcount, getblock), PROXY_WORKERS (processes of the "-workers"
 * targets; default: the cores this process may use), NGINX_WORKERS (1, of the plain nginx
 * target), ROUTES (100000; 0 skips the start-up), NGINX_BIN, LITECOIND_PATH, ANVIL_PATH,
 * PROFILE_DIR (write a CPU profile of the node-proxy's process there), BASELINE_ROOT (a built
 * checkout of an earlier commit: its node-proxy is measured too, as `node-proxy-baseline`, for
 * before/after figures from one run), SECTIONS (comma-separated subset of upstreams, read-mix,
 * routes; default all). The read mix: READ_MIX_CHAINS (anvil,litecoind), HISTORY_BLOCKS (100 old
 * blocks), BLOCK_TRANSACTIONS (200 transactions each; the upstream sections' latest anvil block
 * keeps 10 unless it is set), READ_MIX_SEED (31), READ_MIX_CHECKS (300 calls checked against
 * direct's answers first); CONNECTIONS, LITECOIND_CONNECTIONS, DURATION, WARMUP, LATENCY_CONNECTIONS
 * and ROUNDS as above.
 *
 *   SECTIONS=read-mix npm run bench:proxy                                    # the read mix alone
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { anvilFromPackage, findOnPath } from '@cloud/nodes';
import { startChild } from './child';
import { runLoad, type LoadResult, type LoadSettings } from './load';
import { medianResult, passThroughMarkdown, ratiosMarkdown, scenarioMarkdown, type ReportSettings, type Row } from './report';
import { realScenarios, SCENARIOS, UPSTREAM_KINDS, type Scenario, type UpstreamKind } from './requests';
import { READ_MIX_CHAINS, readMixSection, type ReadMixChain } from './read-mix';
import { startTarget, TARGET_NAMES, type Target, type TargetName, type UpstreamInfo } from './targets';
import { integerSetting, listSetting } from './settings';

const CONNECTIONS = integerSetting('CONNECTIONS', 32);
const LITECOIND_CONNECTIONS = integerSetting('LITECOIND_CONNECTIONS', 8);
const DURATION = integerSetting('DURATION', 10);
const WARMUP = integerSetting('WARMUP', 3, 0);
const PIPELINING = integerSetting('PIPELINING', 1);
const LATENCY_CONNECTIONS = integerSetting('LATENCY_CONNECTIONS', 1, 0);
const ROUNDS = integerSetting('ROUNDS', 3);
const NGINX_WORKERS = process.env.NGINX_WORKERS || '1';
const PROFILE_DIR = process.env.PROFILE_DIR;
const BASELINE_ROOT = process.env.BASELINE_ROOT || undefined;
const JSON_OUT = process.env.JSON_OUT;
/** Processes of the "-workers" targets: every core this process may use unless told. */
const WORKERS = integerSetting('PROXY_WORKERS', os.availableParallelism());
/** Routes of the start-up measurement at the end; 0 skips it. */
const ROUTES = integerSetting('ROUTES', 100_000, 0);
const SECTIONS = listSetting('SECTIONS', ['upstreams', 'read-mix', 'routes'] as const);
const HISTORY_BLOCKS = integerSetting('HISTORY_BLOCKS', 100);
const READ_MIX_TRANSACTIONS = integerSetting('BLOCK_TRANSACTIONS', 200);
const READ_MIX_SEED = integerSetting('READ_MIX_SEED', 31, 0);
const READ_MIX_CHECKS = integerSetting('READ_MIX_CHECKS', 300, 0);
/** A run during which the rest of the machine used more CPU than this (cores) was disturbed by another program. */
const DISTURBED_CORES = 0.2;

const print = (line = '') => process.stdout.write(`${line}\n`);
const progress = (line: string) => process.stderr.write(`${line}\n`);

/** The short commit of a checkout, for the baseline's label. */
function commitOf(root: string): string {
  try {
    return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return root;
  }
}

function machine() {
  const cpus = os.cpus();
  let lscpuModel: string | undefined;
  try {
    lscpuModel = /^Model name:\s*(.+)$/m.exec(execFileSync('lscpu', { encoding: 'utf8' }))?.[1]?.trim();
  } catch {
    lscpuModel = undefined;
  }
  return {
    cpus: cpus.length,
    cpu: lscpuModel ?? cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
  };
}

const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');

/** One request to a target, checked: a wrong answer (401, 404, a mangled batch) stops the run before any figure is taken. */
async function checkAnswer(target: Target, scenario: Scenario): Promise<void> {
  const response = await fetch(target.url, { method: 'POST', headers: target.headers, body: scenario.body });
  const text = await response.text();
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    answer = undefined;
  }
  if (response.status !== 200 || !scenario.check(answer)) {
    throw new Error(`${target.name} answered the ${scenario.name} request wrongly: HTTP ${response.status} ${text.slice(0, 300)}`);
  }
}

interface Measurements {
  saturated: LoadResult[];
  latency: LoadResult[];
}

/** What one upstream's section measures behind the targets. */
interface RunningUpstream {
  kind: UpstreamKind;
  title: string;
  /** Connections of the full-load runs: CONNECTIONS, or fewer where the node itself refuses more. */
  connections: number;
  info: UpstreamInfo;
  scenarios: Scenario[];
  stop(): Promise<void>;
}

/** The targets measured in front of a real node unless TARGETS says otherwise (the reference pass-throughs cannot log in to one). */
const REAL_NODE_TARGETS: readonly TargetName[] = ['direct', 'node-proxy', 'node-proxy-tls', 'node-proxy-workers', 'nginx', 'nginx-workers'];

/** The scenarios SCENARIOS names (all unless set); names another upstream has are not an error. */
function pickScenarios(all: Scenario[]): Scenario[] {
  const wanted = process.env.SCENARIOS?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return wanted?.length ? all.filter((scenario) => wanted.includes(scenario.name)) : all;
}

async function startUpstream(kind: UpstreamKind): Promise<RunningUpstream | { skipped: string }> {
  if (kind === 'synthetic') {
    const child = await startChild('upstream');
    return {
      kind,
      title: 'the synthetic upstream (a bare node:http server answering every call with `"0x10"`)',
      connections: CONNECTIONS,
      info: { port: child.port, pids: child.pids, image: 'eth' },
      scenarios: pickScenarios([...SCENARIOS]),
      stop: child.stop,
    };
  }
  const software =
    kind === 'litecoind' ? process.env.LITECOIND_PATH || findOnPath('litecoind') : process.env.ANVIL_PATH || anvilFromPackage() || findOnPath('anvil');
  if (!software)
    return { skipped: `${kind} is not installed${kind === 'litecoind' ? ' (`apt-get install litecoind`, or set LITECOIND_PATH)' : ' (npm ci installs it)'}` };
  const child = await startChild('real-node', [kind], [], { startSeconds: 120 });
  const facts = child.facts;
  return {
    kind,
    title:
      kind === 'anvil'
        ? `a real anvil node (${softwareVersion(software)}), run by the local driver on its dev chain`
        : `a real Litecoin Core node (${softwareVersion(software)}), run by the local driver on regtest (${facts.height} blocks, each its coinbase only)`,
    // Litecoin Core serves RPC on 4 threads with a queue of 16 and answers 503 ("Work queue depth
    // exceeded") beyond that, so it gets LITECOIND_CONNECTIONS (8) rather than 32.
    connections: kind === 'litecoind' ? LITECOIND_CONNECTIONS : CONNECTIONS,
    // The driver's process is the node's too: it reads and redacts the node's log (anvil logs every call).
    info: { port: child.port, pids: child.pids, image: kind === 'anvil' ? 'eth' : 'ltc', authorization: facts.authorization, keyFile: facts.keyFile },
    scenarios: pickScenarios(realScenarios(kind, facts)),
    stop: child.stop,
  };
}

function softwareVersion(binary: string): string {
  try {
    return execFileSync(binary, ['--version'], { encoding: 'utf8' }).split('\n')[0]!.trim();
  } catch {
    return path.basename(binary);
  }
}

/** Measures every target in front of one upstream; prints its section. Returns its figures for JSON_OUT. */
async function measureUpstream(
  upstream: RunningUpstream,
  targetNames: readonly TargetName[],
  print: (line?: string) => void,
): Promise<Record<string, unknown>> {
  const targets: Target[] = [];
  const skipped: string[] = [];
  try {
    for (const name of targetNames) {
      const started = await startTarget(name, {
        upstream: upstream.info,
        nginxWorkers: NGINX_WORKERS,
        workers: WORKERS,
        proxyExecArgv: PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [],
        baselineRoot: BASELINE_ROOT,
        baselineLabel: BASELINE_ROOT ? commitOf(BASELINE_ROOT) : '',
      });
      if ('skipped' in started) {
        skipped.push(`${name}: skipped, ${started.skipped}`);
        progress(`${upstream.kind} ${name}: skipped, ${started.skipped}`);
      } else {
        targets.push(started.target);
      }
    }
    for (const target of targets) for (const scenario of upstream.scenarios) await checkAnswer(target, scenario);

    const measured = new Map<string, Measurements>();
    const key = (scenario: Scenario, target: Target) => `${scenario.name}/${target.name}`;
    const settings = (connections = upstream.connections): LoadSettings => ({ connections, durationSeconds: DURATION, pipelining: PIPELINING });
    const upstreamPids = upstream.info.pids;
    for (let round = 0; round < ROUNDS; round++) {
      const order = targets.map((_, index) => targets[(index + round) % targets.length]!);
      for (const scenario of upstream.scenarios) {
        for (const target of order) {
          const load = { url: target.url, headers: target.headers, body: scenario.body, pids: target.pids, servername: target.servername };
          const chargedUpstream = target.name === 'direct' ? [] : upstreamPids;
          if (WARMUP > 0) await runLoad(load, { ...settings(), durationSeconds: WARMUP });
          const saturated = await runLoad(load, settings(), chargedUpstream);
          const latency = LATENCY_CONNECTIONS > 0 ? await runLoad(load, settings(LATENCY_CONNECTIONS), chargedUpstream) : undefined;
          const entry = measured.get(key(scenario, target)) ?? { saturated: [], latency: [] };
          entry.saturated.push(saturated);
          if (latency) entry.latency.push(latency);
          measured.set(key(scenario, target), entry);
          progress(
            `round ${round + 1}/${ROUNDS} ${upstream.kind} ${scenario.name} ${target.name}: ${Math.round(saturated.requestsPerSecond)} req/s, ` +
              `p50 ${saturated.p50.toFixed(2)} ms, p99 ${saturated.p99.toFixed(2)} ms` +
              (latency
                ? `; ${LATENCY_CONNECTIONS} connection(s): ${Math.round(latency.requestsPerSecond)} req/s, p50 ${latency.p50.toFixed(3)} ms, p99 ${latency.p99.toFixed(3)} ms`
                : '') +
              `; other programs ${(saturated.otherCores ?? 0).toFixed(2)}${latency ? ` / ${(latency.otherCores ?? 0).toFixed(2)}` : ''} cores`,
          );
        }
      }
    }

    const reportSettings: ReportSettings = {
      connections: upstream.connections,
      durationSeconds: DURATION,
      warmupSeconds: WARMUP,
      pipelining: PIPELINING,
      latencyConnections: LATENCY_CONNECTIONS || undefined,
      rounds: ROUNDS,
    };
    print(`## Upstream: ${upstream.title}`);
    for (const line of skipped) print(`\n- ${line}`);
    print();
    let runs = 0;
    let disturbed = 0;
    /** The runs other programs left alone, or all of them if none was. */
    const undisturbed = (results: LoadResult[]): LoadResult[] => {
      const clean = results.filter((result) => (result.otherCores ?? 0) <= DISTURBED_CORES);
      runs += results.length;
      disturbed += results.length - clean.length;
      return clean.length > 0 ? clean : results;
    };
    const rowsOf = (scenario: Scenario): Row[] =>
      targets.map((target) => {
        const entry = measured.get(key(scenario, target))!;
        return {
          name: target.name,
          label: target.label,
          saturated: medianResult(undisturbed(entry.saturated)),
          ...(entry.latency.length > 0 ? { latency: medianResult(undisturbed(entry.latency)) } : {}),
        };
      });
    const rowsByScenario = upstream.scenarios.map((scenario) => ({ scenario, rows: rowsOf(scenario) }));
    if (disturbed > 0) {
      print(
        `${disturbed} of ${runs} runs were disturbed (other programs used more than ${DISTURBED_CORES} cores meanwhile) ` +
          'and are left out of the medians where an undisturbed run of the same target remains; JSON_OUT has them all.',
      );
      print();
    }
    for (const { scenario, rows } of rowsByScenario) print(scenarioMarkdown({ title: scenario.title, rows }, reportSettings));
    const byName = rowsByScenario.map(({ scenario, rows }) => ({ title: scenario.name, rows }));
    print(ratiosMarkdown(byName, WORKERS));
    const passThrough = passThroughMarkdown(byName);
    if (passThrough) print(passThrough);
    return {
      skipped,
      scenarios: Object.fromEntries(
        upstream.scenarios.map((scenario) => [scenario.name, Object.fromEntries(targets.map((target) => [target.name, measured.get(key(scenario, target))]))]),
      ),
    };
  } finally {
    for (const target of targets.reverse()) await target.stop().catch((error: unknown) => progress(`could not stop ${target.name}: ${String(error)}`));
  }
}

/** The 100,000-route start-up (route-startup.ts), in its own process with --expose-gc; its table is printed as it is. */
function routeStartup(nodes: number): string {
  return execFileSync(process.execPath, ['--expose-gc', path.join(__dirname, 'route-startup.js')], {
    encoding: 'utf8',
    env: { ...process.env, NODES: String(nodes) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

async function main(): Promise<void> {
  const kinds = listSetting<UpstreamKind>('UPSTREAMS', UPSTREAM_KINDS);
  const host = machine();
  const loadAtStart = loadAverage();
  progress(`proxy benchmark: ${host.cpus} × ${host.cpu}, Node ${host.node}; load average ${loadAtStart}`);
  // The TLS target's certificate is the proxy's own self-signed one; the answer check must take it.
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';

  const sections: string[] = [];
  const json: Record<string, unknown> = { machine: host, upstreams: {} };
  for (const kind of SECTIONS.includes('upstreams') ? kinds : []) {
    const upstream = await startUpstream(kind);
    if ('skipped' in upstream) {
      progress(`${kind}: skipped, ${upstream.skipped}`);
      sections.push(`## Upstream: ${kind}\n\nSkipped: ${upstream.skipped}.\n`);
      continue;
    }
    try {
      const lines: string[] = [];
      const defaults = kind === 'synthetic' ? TARGET_NAMES : REAL_NODE_TARGETS;
      const targetNames = process.env.TARGETS ? listSetting<TargetName>('TARGETS', TARGET_NAMES) : defaults;
      (json.upstreams as Record<string, unknown>)[kind] = await measureUpstream(upstream, targetNames, (line = '') => lines.push(line));
      sections.push(lines.join('\n'));
    } finally {
      await upstream.stop();
    }
  }
  if (SECTIONS.includes('read-mix')) {
    const readMix = await readMixSection({
      chains: listSetting<ReadMixChain>('READ_MIX_CHAINS', READ_MIX_CHAINS),
      blocks: HISTORY_BLOCKS,
      transactions: READ_MIX_TRANSACTIONS,
      connections: { anvil: CONNECTIONS, litecoind: LITECOIND_CONNECTIONS },
      durationSeconds: DURATION,
      warmupSeconds: WARMUP,
      latencyConnections: LATENCY_CONNECTIONS,
      rounds: ROUNDS,
      seed: READ_MIX_SEED,
      checks: READ_MIX_CHECKS,
      progress,
    });
    sections.push(`## Read mix (issue 31): direct, through the proxy without and with its cache\n\n${readMix.markdown}`);
    json.readMix = readMix.json;
  }
  let routes: string | undefined;
  if (ROUTES > 0 && SECTIONS.includes('routes')) {
    progress(`start-up with ${ROUTES} routes`);
    routes = routeStartup(ROUTES);
  }

  const loadAtEnd = loadAverage();
  print('# Node-proxy benchmark');
  print();
  print(
    `Machine: ${host.cpus} × ${host.cpu}, ${host.memoryGiB} GiB, ${host.platform}, Node.js ${host.node}. ` +
      `Load average ${loadAtStart} at the start, ${loadAtEnd} at the end. ` +
      `Each upstream, each proxy and autocannon run in their own process; nothing is pinned. ` +
      `"-workers" targets run ${WORKERS} processes (node-proxy workers, nginx worker_processes).`,
  );
  print();
  for (const section of sections) print(section);
  if (routes) {
    print(`## Start-up with ${ROUTES.toLocaleString('en-US')} routes (route-startup.ts)`);
    print();
    print(routes);
  }
  json.loadAverage = { start: loadAtStart, end: loadAtEnd };
  if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify(json, null, 2)}\n`);
}

main().then(
  () => undefined,
  (error: unknown) => {
    progress(`proxy benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
