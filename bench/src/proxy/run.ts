/**
 * The node-proxy benchmark: a fast local JSON-RPC upstream measured directly, through our
 * node-proxy (authentication, method filter and usage metering on), through nginx as a plain
 * reverse proxy, and through bare pass-throughs (undici's `request()` + `pipeline()`, undici's
 * `stream()` as the node-proxy uses it, node:http's client, and http-proxy if installed), in one run with the same
 * autocannon settings, for one small call and a 50-call batch.
 *
 *   npm run bench:proxy                                                      # from the repository root
 *   ROUNDS=1 TARGETS=direct,node-proxy SCENARIOS=small npm run bench:proxy   # a quick look
 *
 * Every target runs in its own process (the upstream too); autocannon runs in this one. For each
 * scenario and target: WARMUP seconds of load that are thrown away, DURATION seconds with
 * CONNECTIONS connections as fast as the target answers (req/s, latency at full load), then
 * DURATION seconds with LATENCY_CONNECTIONS (one) connection: the latency a proxy adds when
 * nothing queues. (Not a fixed-rate run: autocannon's rate limit sends each second's requests in
 * one burst, so such a run measures queueing in the burst.) The order of the targets rotates each
 * round and the tables give the medians over ROUNDS. Markdown goes to stdout, progress to stderr;
 * JSON_OUT=<file> also writes every run's figures as JSON.
 *
 * Environment: CONNECTIONS (32), DURATION (10), WARMUP (3), PIPELINING (1), LATENCY_CONNECTIONS
 * (1; 0: skip the latency runs), ROUNDS (3), TARGETS (comma-separated subset of direct,
 * node-proxy, nginx, undici, undici-stream, node-http, http-proxy), SCENARIOS (small, batch),
 * NGINX_WORKERS (1), PROXY_WORKERS (1: the node-proxy's worker processes, as its main.ts runs them), NGINX_BIN, PROFILE_DIR (write a CPU profile of the node-proxy's process there),
 * BASELINE_ROOT (a built checkout of an earlier commit: its node-proxy is measured too, as
 * `node-proxy-baseline`, for before/after figures from one run).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { startChild, type RunningChild } from './child';
import { runLoad, type LoadResult, type LoadSettings } from './load';
import { medianResult, scenarioMarkdown, type ReportSettings, type Row } from './report';
import { SCENARIOS, type Scenario } from './requests';
import { startTarget, TARGET_NAMES, type Target, type TargetName } from './targets';
import { integerSetting, listSetting } from './settings';

const CONNECTIONS = integerSetting('CONNECTIONS', 32);
const DURATION = integerSetting('DURATION', 10);
const WARMUP = integerSetting('WARMUP', 3, 0);
const PIPELINING = integerSetting('PIPELINING', 1);
const LATENCY_CONNECTIONS = integerSetting('LATENCY_CONNECTIONS', 1, 0);
const ROUNDS = integerSetting('ROUNDS', 3);
const NGINX_WORKERS = process.env.NGINX_WORKERS || '1';
const PROFILE_DIR = process.env.PROFILE_DIR;
const BASELINE_ROOT = process.env.BASELINE_ROOT || undefined;
const JSON_OUT = process.env.JSON_OUT;
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

const loadAverage = () => os.loadavg().map((value) => value.toFixed(2)).join(', ');

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

async function main(): Promise<void> {
  const targetNames = listSetting<TargetName>('TARGETS', TARGET_NAMES);
  const scenarios = listSetting('SCENARIOS', SCENARIOS.map((scenario) => scenario.name)).map((name) => SCENARIOS.find((scenario) => scenario.name === name)!);
  const host = machine();
  const loadAtStart = loadAverage();
  progress(`proxy benchmark: ${host.cpus} × ${host.cpu}, Node ${host.node}; load average ${loadAtStart}`);

  let upstream: RunningChild | undefined;
  const targets: Target[] = [];
  const skipped: string[] = [];
  try {
    upstream = await startChild('upstream');
    for (const name of targetNames) {
      const started = await startTarget(name, {
        upstream: { port: upstream.port, pid: upstream.pid },
        nginxWorkers: NGINX_WORKERS,
        proxyExecArgv: PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [],
        baselineRoot: BASELINE_ROOT,
        baselineLabel: BASELINE_ROOT ? commitOf(BASELINE_ROOT) : '',
      });
      if ('skipped' in started) {
        skipped.push(`${name}: skipped, ${started.skipped}`);
        progress(`${name}: skipped, ${started.skipped}`);
      } else {
        targets.push(started.target);
      }
    }
    for (const target of targets) for (const scenario of scenarios) await checkAnswer(target, scenario);

    const measured = new Map<string, Measurements>();
    const key = (scenario: Scenario, target: Target) => `${scenario.name}/${target.name}`;
    const settings = (connections = CONNECTIONS): LoadSettings => ({ connections, durationSeconds: DURATION, pipelining: PIPELINING });
    for (let round = 0; round < ROUNDS; round++) {
      const order = targets.map((_, index) => targets[(index + round) % targets.length]!);
      for (const scenario of scenarios) {
        for (const target of order) {
          const load = { url: target.url, headers: target.headers, body: scenario.body, pids: target.pids };
          const upstreamPids = target.name === 'direct' ? [] : [upstream.pid];
          if (WARMUP > 0) await runLoad(load, { ...settings(), durationSeconds: WARMUP });
          const saturated = await runLoad(load, settings(), upstreamPids);
          const latency = LATENCY_CONNECTIONS > 0 ? await runLoad(load, settings(LATENCY_CONNECTIONS), upstreamPids) : undefined;
          const entry = measured.get(key(scenario, target)) ?? { saturated: [], latency: [] };
          entry.saturated.push(saturated);
          if (latency) entry.latency.push(latency);
          measured.set(key(scenario, target), entry);
          progress(
            `round ${round + 1}/${ROUNDS} ${scenario.name} ${target.name}: ${Math.round(saturated.requestsPerSecond)} req/s, ` +
              `p50 ${saturated.p50.toFixed(2)} ms, p99 ${saturated.p99.toFixed(2)} ms` +
              (latency ? `; ${LATENCY_CONNECTIONS} connection(s): ${Math.round(latency.requestsPerSecond)} req/s, p50 ${latency.p50.toFixed(3)} ms, p99 ${latency.p99.toFixed(3)} ms` : '') +
              `; other programs ${(saturated.otherCores ?? 0).toFixed(2)}${latency ? ` / ${(latency.otherCores ?? 0).toFixed(2)}` : ''} cores`,
          );
        }
      }
    }

    const reportSettings: ReportSettings = { connections: CONNECTIONS, durationSeconds: DURATION, warmupSeconds: WARMUP, pipelining: PIPELINING, latencyConnections: LATENCY_CONNECTIONS || undefined, rounds: ROUNDS };
    const loadAtEnd = loadAverage();
    print('## Node-proxy benchmark');
    print();
    print(
      `Machine: ${host.cpus} × ${host.cpu}, ${host.memoryGiB} GiB, ${host.platform}, Node.js ${host.node}. ` +
        `Load average ${loadAtStart} at the start, ${loadAtEnd} at the end. ` +
        `Upstream, each proxy and autocannon each run in their own process; nothing is pinned.`,
    );
    for (const line of skipped) print(`\n- ${line}`);
    print();
    const json: Record<string, unknown> = { machine: host, loadAverage: { start: loadAtStart, end: loadAtEnd }, settings: reportSettings, skipped, scenarios: {} };
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
    const rowsByScenario = scenarios.map((scenario) => ({ scenario, rows: rowsOf(scenario) }));
    if (disturbed > 0) {
      print(
        `${disturbed} of ${runs} runs were disturbed (other programs used more than ${DISTURBED_CORES} cores meanwhile) ` +
          'and are left out of the medians where an undisturbed run of the same target remains; JSON_OUT has them all.',
      );
      print();
    }
    for (const { scenario, rows } of rowsByScenario) {
      print(scenarioMarkdown({ title: scenario.title, rows }, reportSettings));
      (json.scenarios as Record<string, unknown>)[scenario.name] = Object.fromEntries(
        targets.map((target) => [target.name, measured.get(key(scenario, target))]),
      );
    }
    if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify(json, null, 2)}\n`);
  } finally {
    for (const target of targets.reverse()) await target.stop().catch((error: unknown) => progress(`could not stop ${target.name}: ${String(error)}`));
    await upstream?.stop();
  }
}

main().then(
  () => undefined,
  (error: unknown) => {
    progress(`proxy benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
