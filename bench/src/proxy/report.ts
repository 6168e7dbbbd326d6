/** The benchmark's figures as Markdown tables, and the targets checked against them. */
import type { LoadResult } from './load';
import type { TargetName } from './targets';

/** The targets for our node-proxy, against the upstream alone. */
export const TARGETS = { minThroughputRatio: 0.8, maxAddedP50Ms: 0.3, maxAddedP99Ms: 2 };

export interface Row {
  name: TargetName;
  label: string;
  saturated: LoadResult;
  latency?: LoadResult;
}

export interface ScenarioReport {
  title: string;
  rows: Row[];
}

export interface ReportSettings {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  pipelining: number;
  /** Connections of the latency runs; undefined: none were made. */
  latencyConnections: number | undefined;
  rounds: number;
}

/** The median of each figure over the rounds; error counts are summed. */
export function medianResult(results: readonly LoadResult[]): LoadResult {
  const median = (pick: (result: LoadResult) => number | undefined): number | undefined => {
    const values = results.map(pick).filter((value): value is number => value !== undefined && !Number.isNaN(value));
    if (values.length === 0) return undefined;
    values.sort((a, b) => a - b);
    const middle = Math.floor(values.length / 2);
    return values.length % 2 ? values[middle]! : (values[middle - 1]! + values[middle]!) / 2;
  };
  const sum = (pick: (result: LoadResult) => number) => results.reduce((total, result) => total + pick(result), 0);
  const targetCores = median((result) => result.targetCores);
  const upstreamCores = median((result) => result.upstreamCores);
  const cpuPerRequest = median((result) => result.targetCpuMicrosPerRequest);
  const otherCores = median((result) => result.otherCores);
  return {
    requests: median((result) => result.requests) ?? 0,
    seconds: median((result) => result.seconds) ?? 0,
    requestsPerSecond: median((result) => result.requestsPerSecond) ?? 0,
    p50: median((result) => result.p50) ?? NaN,
    p90: median((result) => result.p90) ?? NaN,
    p99: median((result) => result.p99) ?? NaN,
    max: median((result) => result.max) ?? NaN,
    bytesPerRequest: median((result) => result.bytesPerRequest) ?? 0,
    non2xx: sum((result) => result.non2xx),
    errors: sum((result) => result.errors),
    timeouts: sum((result) => result.timeouts),
    loadCores: median((result) => result.loadCores) ?? 0,
    ...(targetCores === undefined ? {} : { targetCores }),
    ...(upstreamCores === undefined ? {} : { upstreamCores }),
    ...(cpuPerRequest === undefined ? {} : { targetCpuMicrosPerRequest: cpuPerRequest }),
    ...(otherCores === undefined ? {} : { otherCores }),
  };
}

const integer = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number) => (Number.isNaN(value) ? '–' : value.toFixed(value < 1 ? 3 : 2));
const added = (value: number) => (Number.isNaN(value) ? '–' : `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(Math.abs(value) < 1 ? 3 : 2)}`);
const percent = (value: number) => `${Math.round(value * 100)} %`;
const cores = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(2));
const verdict = (ok: boolean) => (ok ? 'pass' : '**FAIL**');

function failures(result: LoadResult): string {
  const bad = result.non2xx + result.errors + result.timeouts;
  return bad === 0 ? '' : ` ⚠ ${bad} failed (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})`;
}

function settingsLine(settings: ReportSettings, connections: number): string {
  const rounds = settings.rounds > 1 ? `; median over ${settings.rounds} rounds` : '';
  return `autocannon, ${connections} connection${connections === 1 ? '' : 's'}, pipelining ${settings.pipelining}, ${settings.durationSeconds} s after a ${settings.warmupSeconds} s warm-up, as fast as answered${rounds}`;
}

export function scenarioMarkdown(report: ScenarioReport, settings: ReportSettings): string {
  const lines: string[] = [`### ${report.title}`, ''];
  const direct = report.rows.find((row) => row.name === 'direct');
  const proxy = report.rows.find((row) => row.name === 'node-proxy');
  const nginx = report.rows.find((row) => row.name === 'nginx');

  lines.push(`Throughput (${settingsLine(settings, settings.connections)}):`, '');
  lines.push(
    '| target | req/s | p50 ms | p99 ms | req/s vs direct | added p50 ms | added p99 ms | CPU of target (cores) | target CPU per request (µs) | CPU of upstream (cores) | CPU of autocannon (cores) | other CPU (cores) |',
  );
  lines.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const row of report.rows) {
    const result = row.saturated;
    const isDirect = row.name === 'direct';
    const base = direct?.saturated;
    lines.push(
      `| ${row.label}${failures(result)} | ${integer(result.requestsPerSecond)} | ${ms(result.p50)} | ${ms(result.p99)} | ` +
        `${base && !isDirect ? percent(result.requestsPerSecond / base.requestsPerSecond) : '–'} | ` +
        `${base && !isDirect ? added(result.p50 - base.p50) : '–'} | ${base && !isDirect ? added(result.p99 - base.p99) : '–'} | ` +
        `${cores(result.targetCores)} | ${result.targetCpuMicrosPerRequest === undefined ? '–' : integer(result.targetCpuMicrosPerRequest)} | ` +
        `${isDirect ? '–' : cores(result.upstreamCores)} | ${cores(result.loadCores)} | ${cores(result.otherCores)} |`,
    );
  }
  lines.push('');

  const unloaded = settings.latencyConnections === 1 ? 'one connection' : `${settings.latencyConnections} connections`;
  if (settings.latencyConnections && report.rows.some((row) => row.latency)) {
    lines.push(`Latency with nothing queued (${settingsLine(settings, settings.latencyConnections)}):`, '');
    lines.push('| target | req/s | p50 ms | p90 ms | p99 ms | added p50 ms | added p99 ms | target CPU per request (µs) |');
    lines.push('|---|--:|--:|--:|--:|--:|--:|--:|');
    for (const row of report.rows) {
      const result = row.latency;
      if (!result) continue;
      const base = direct?.latency;
      const isDirect = row.name === 'direct';
      lines.push(
        `| ${row.label}${failures(result)} | ${integer(result.requestsPerSecond)} | ${ms(result.p50)} | ${ms(result.p90)} | ${ms(result.p99)} | ` +
          `${base && !isDirect ? added(result.p50 - base.p50) : '–'} | ${base && !isDirect ? added(result.p99 - base.p99) : '–'} | ` +
          `${result.targetCpuMicrosPerRequest === undefined ? '–' : integer(result.targetCpuMicrosPerRequest)} |`,
      );
    }
    lines.push('');
  }

  if (direct && proxy) {
    const invalid = [direct, proxy].some((row) => failures(row.saturated) || (row.latency && failures(row.latency)));
    const ratio = proxy.saturated.requestsPerSecond / direct.saturated.requestsPerSecond;
    lines.push(`Targets for our node-proxy${invalid ? ' (⚠ some calls failed: the run is not valid)' : ''}:`, '');
    lines.push('| target | measured | |', '|---|--:|---|');
    lines.push(`| req/s ≥ ${percent(TARGETS.minThroughputRatio)} of direct | ${percent(ratio)} | ${verdict(ratio >= TARGETS.minThroughputRatio)} |`);
    const checkLatency = (label: string, proxyResult: LoadResult, directResult: LoadResult) => {
      const p50 = proxyResult.p50 - directResult.p50;
      const p99 = proxyResult.p99 - directResult.p99;
      lines.push(`| added p50 ≤ ${TARGETS.maxAddedP50Ms} ms, ${label} | ${added(p50)} ms | ${verdict(p50 <= TARGETS.maxAddedP50Ms)} |`);
      lines.push(`| added p99 ≤ ${TARGETS.maxAddedP99Ms} ms, ${label} | ${added(p99)} ms | ${verdict(p99 <= TARGETS.maxAddedP99Ms)} |`);
    };
    if (proxy.latency && direct.latency) checkLatency(unloaded, proxy.latency, direct.latency);
    checkLatency(`${settings.connections} connections (full load)`, proxy.saturated, direct.saturated);
    lines.push('');
    if (nginx) {
      const nginxRatio = nginx.saturated.requestsPerSecond / direct.saturated.requestsPerSecond;
      let text =
        `Against nginx: our node-proxy does ${percent(proxy.saturated.requestsPerSecond / nginx.saturated.requestsPerSecond)} of nginx's req/s ` +
        `(nginx: ${percent(nginxRatio)} of direct)`;
      if (proxy.latency && nginx.latency && direct.latency) {
        text +=
          `; with ${unloaded} it adds ${added(proxy.latency.p50 - direct.latency.p50)} ms p50 / ${added(proxy.latency.p99 - direct.latency.p99)} ms p99, ` +
          `nginx ${added(nginx.latency.p50 - direct.latency.p50)} / ${added(nginx.latency.p99 - direct.latency.p99)} ms`;
      }
      const proxyCpu = proxy.saturated.targetCpuMicrosPerRequest;
      const nginxCpu = nginx.saturated.targetCpuMicrosPerRequest;
      if (proxyCpu !== undefined && nginxCpu !== undefined) {
        text += `; CPU per request ${integer(proxyCpu)} µs against nginx's ${integer(nginxCpu)} µs`;
      }
      lines.push(`${text}.`, '');
    }
  }
  return lines.join('\n');
}

/** The bounds on what the proxy keeps (issue 19): against nginx with as many workers, TLS on against off, N workers against 1. */
export const RATIO_TARGETS = { vsNginx: 0.6, tlsVsPlain: 0.85, workersVsOne: 1.5 };

/**
 * One row per scenario of the ratios the issue asks for, each from figures of the same run:
 * the node-proxy against direct and against nginx with the same number of worker processes,
 * TLS on against TLS off, N workers against one; and each target's CPU per call.
 */
export function ratiosMarkdown(reports: ScenarioReport[], workers: number): string {
  const lines: string[] = ['### Ratios (req/s at full load, same run) and proxy CPU per call', ''];
  const ratio = (rows: Row[], over: TargetName, under: TargetName, bound?: number): string => {
    const a = rows.find((row) => row.name === over)?.saturated.requestsPerSecond;
    const b = rows.find((row) => row.name === under)?.saturated.requestsPerSecond;
    if (a === undefined || b === undefined || b === 0) return '–';
    const value = a / b;
    return `${value.toFixed(2)}×${bound === undefined ? '' : value >= bound ? ' (pass)' : ' (**below**)'}`;
  };
  const cpu = (rows: Row[], name: TargetName) => {
    const value = rows.find((row) => row.name === name)?.saturated.targetCpuMicrosPerRequest;
    return value === undefined ? '–' : integer(value);
  };
  lines.push(
    `| scenario | proxy / direct | proxy / nginx (1 worker each, ≥ ${RATIO_TARGETS.vsNginx}) | proxy / nginx (${workers} each, ≥ ${RATIO_TARGETS.vsNginx}) | TLS on / off (≥ ${RATIO_TARGETS.tlsVsPlain}) | ${workers} workers / 1 (≥ ${RATIO_TARGETS.workersVsOne}) | proxy µs/call | TLS µs/call | ${workers} workers µs/call | nginx µs/call |`,
  );
  lines.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const { title, rows } of reports) {
    lines.push(
      `| ${title} | ${ratio(rows, 'node-proxy', 'direct')} | ${ratio(rows, 'node-proxy', 'nginx', RATIO_TARGETS.vsNginx)} | ${ratio(rows, 'node-proxy-workers', 'nginx-workers', RATIO_TARGETS.vsNginx)} | ` +
        `${ratio(rows, 'node-proxy-tls', 'node-proxy', RATIO_TARGETS.tlsVsPlain)} | ${ratio(rows, 'node-proxy-workers', 'node-proxy', RATIO_TARGETS.workersVsOne)} | ` +
        `${cpu(rows, 'node-proxy')} | ${cpu(rows, 'node-proxy-tls')} | ${cpu(rows, 'node-proxy-workers')} | ${cpu(rows, 'nginx')} |`,
    );
  }
  lines.push('');
  return lines.join('\n');
}

/** Issue 30's bounds on the proxy's own CPU: µs per call over the bare undici `stream()` pass-through, and a batch's CPU against a small call's. */
export const PASS_THROUGH_TARGETS = { small: 25, batch: 50, batchOverSmall: 2 };

/**
 * The CPU our node-proxy adds to a call over the bare undici `stream()` pass-through (the same
 * node:http server and undici client, checking nothing), per scenario, and the batch's CPU per
 * call against the small call's; from figures of the same run. Empty when either target or the
 * small and batch scenarios were not measured.
 */
export function passThroughMarkdown(reports: ScenarioReport[]): string {
  const cpuOf = (title: string, name: TargetName) =>
    reports.find((report) => report.title === title)?.rows.find((row) => row.name === name)?.saturated.targetCpuMicrosPerRequest;
  const proxy = { small: cpuOf('small', 'node-proxy'), batch: cpuOf('batch', 'node-proxy') };
  const bare = { small: cpuOf('small', 'undici-stream'), batch: cpuOf('batch', 'undici-stream') };
  if (proxy.small === undefined || proxy.batch === undefined || bare.small === undefined || bare.batch === undefined) return '';
  const added = (scenario: 'small' | 'batch') => {
    const value = proxy[scenario]! - bare[scenario]!;
    return `+${integer(value)} µs (${value <= PASS_THROUGH_TARGETS[scenario] ? 'pass' : '**over**'})`;
  };
  const batchOverSmall = proxy.batch / proxy.small;
  return [
    '### The proxy against the bare undici `stream()` pass-through (CPU per call, same run)',
    '',
    `| proxy µs/call, small | pass-through, small | added, small (≤ +${PASS_THROUGH_TARGETS.small}) | proxy µs/call, batch | pass-through, batch | added, batch (≤ +${PASS_THROUGH_TARGETS.batch}) | proxy batch / small (≤ ${PASS_THROUGH_TARGETS.batchOverSmall}×) |`,
    '|--:|--:|--:|--:|--:|--:|--:|',
    `| ${integer(proxy.small)} | ${integer(bare.small)} | ${added('small')} | ${integer(proxy.batch)} | ${integer(bare.batch)} | ${added('batch')} | ` +
      `${batchOverSmall.toFixed(2)}× (${batchOverSmall <= PASS_THROUGH_TARGETS.batchOverSmall ? 'pass' : '**over**'}) |`,
    '',
  ].join('\n');
}
