/**
 * The read mix (issue 31): a real anvil and a real Litecoin Core node holding a history of
 * `blocks` blocks of `transactions` transactions (`history.ts`), read with what a dapp front end
 * and an indexer send (`read-mix-requests.ts`) directly, through our node-proxy without its cache
 * (`PROXY_CACHE_BYTES=0`) and through it with its cache (the default bound), side by side in one
 * run. Per target and round: a warm-up, a full-load run (the section's connections), a
 * one-connection run; the order of the targets rotates each round, the table gives medians. For
 * the proxies: the cache's hits and misses during the full-load runs (from `/metrics`:
 * `node_proxy_cache_hits_total`, `node_proxy_cache_misses_total`) and the process's RSS.
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { startChild } from './child';
import type { History } from './history';
import { runLoad, type LoadResult, type LoadSettings } from './load';
import { bitcoinMix, ethereumMix, TRACKED_PER_BLOCK, type ReadMix } from './read-mix-requests';
import { medianResult } from './report';
import { startTarget, type Target, type TargetName, type UpstreamInfo } from './targets';

export const READ_MIX_CHAINS = ['anvil', 'litecoind'] as const;
export type ReadMixChain = (typeof READ_MIX_CHAINS)[number];

const READ_MIX_TARGETS: readonly TargetName[] = ['direct', 'node-proxy-no-cache', 'node-proxy'];

export interface ReadMixSettings {
  chains: ReadMixChain[];
  blocks: number;
  transactions: number;
  /** Full-load connections per chain (Litecoin Core refuses more than its RPC queue takes). */
  connections: Record<ReadMixChain, number>;
  durationSeconds: number;
  warmupSeconds: number;
  /** 0: no one-connection runs. */
  latencyConnections: number;
  rounds: number;
  seed: number;
  /** Calls drawn from the mix and checked against direct's answers on every target before anything is measured. */
  checks: number;
  progress(line: string): void;
}

/** One target's figures over the rounds. */
interface Measured {
  saturated: LoadResult[];
  latency: LoadResult[];
  hits: number;
  misses: number;
  /** kB, after the last run: resident and peak. */
  rssKb?: number;
  peakRssKb?: number;
  startRssKb?: number;
  /** The proxy's `node_proxy_cache_*` samples after the last run, summed by name. */
  cacheMetrics: Record<string, number>;
}

/** Sums of each sample whose metric name starts with `prefix`, from Prometheus text. */
export function metricSums(text: string, prefix: string): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith(prefix)) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const value = Number(match[2]);
    if (Number.isFinite(value)) sums[match[1]!] = (sums[match[1]!] ?? 0) + value;
  }
  return sums;
}

async function cacheMetrics(target: Target): Promise<Record<string, number>> {
  if (!target.metricsUrl) return {};
  const response = await fetch(target.metricsUrl);
  return metricSums(await response.text(), 'node_proxy_cache_');
}

/** VmRSS and VmHWM of a process, kB (Linux). */
function memoryKb(pid: number): { rss?: number; peak?: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) || undefined;
    return { rss: field('VmRSS'), peak: field('VmHWM') };
  } catch {
    return {};
  }
}

/** One call, its parsed answer (a non-200 or a JSON-RPC error throws). */
async function ask(target: Target, body: string): Promise<unknown> {
  const response = await fetch(target.url, { method: 'POST', headers: target.headers, body });
  const text = await response.text();
  const answer = (() => {
    try {
      return JSON.parse(text) as { result?: unknown; error?: unknown };
    } catch {
      return undefined;
    }
  })();
  if (response.status !== 200 || !answer || (answer.error !== undefined && answer.error !== null) || answer.result === undefined) {
    throw new Error(`${target.name} answered ${body.slice(0, 200)} wrongly: HTTP ${response.status} ${text.slice(0, 300)}`);
  }
  return answer.result;
}

/** One call of each kind and `count` drawn from the mix: each target must answer as the node does directly. */
async function checkAnswers(mix: ReadMix, targets: Target[], count: number, seed: number): Promise<number> {
  const next = mix.stream(seed);
  const bodies = [...mix.kinds.map((kind) => kind.bodies[0]!), ...Array.from({ length: count }, next)];
  const [direct, ...proxies] = targets;
  let index = 0;
  const worker = async () => {
    while (index < bodies.length) {
      const body = bodies[index++]!;
      const expected = await ask(direct!, body);
      for (const proxy of proxies) {
        // Twice: the second may come from the cache.
        for (let time = 0; time < 2; time++) {
          const got = await ask(proxy, body);
          if (!isDeepStrictEqual(got, expected)) throw new Error(`${proxy.name} answered ${body.slice(0, 200)} differently from the node`);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return bodies.length;
}

async function startHistoryNode(chain: ReadMixChain, settings: ReadMixSettings) {
  const started = performance.now();
  const child = await startChild('real-node', [chain, 'history', String(settings.blocks), String(settings.transactions)], [], { startSeconds: 900 });
  const fillSeconds = (performance.now() - started) / 1000;
  const facts = child.facts;
  const history: History = {
    firstBlock: Number(facts.firstBlock),
    lastBlock: Number(facts.lastBlock),
    ...(facts.contract ? { contract: facts.contract } : {}),
  };
  const upstream: UpstreamInfo = {
    port: child.port,
    pids: child.pids,
    image: chain === 'anvil' ? 'eth' : 'ltc',
    authorization: facts.authorization,
    keyFile: facts.keyFile,
    dev: true,
  };
  return { child, history, upstream, fillSeconds };
}

const integer = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number) => (Number.isNaN(value) ? '–' : value.toFixed(value < 1 ? 3 : 2));
const mib = (kb: number | undefined) => (kb === undefined ? '–' : (kb / 1024).toFixed(0));

/** The chain's section: its figures as Markdown, and all runs for JSON_OUT. */
async function measureChain(chain: ReadMixChain, settings: ReadMixSettings): Promise<{ markdown: string; json: unknown }> {
  const { progress } = settings;
  progress(`read mix ${chain}: filling ${settings.blocks} blocks of ${settings.transactions} transactions`);
  const node = await startHistoryNode(chain, settings);
  const targets: Target[] = [];
  try {
    progress(`read mix ${chain}: filled in ${node.fillSeconds.toFixed(0)} s (blocks ${node.history.firstBlock} – ${node.history.lastBlock})`);
    const direct = { url: `http://127.0.0.1:${node.upstream.port}/`, authorization: node.upstream.authorization ?? '' };
    const mix = chain === 'anvil' ? await ethereumMix(direct, node.history) : await bitcoinMix(direct, node.history);
    for (const name of READ_MIX_TARGETS) {
      const started = await startTarget(name, {
        upstream: node.upstream,
        nginxWorkers: '1',
        workers: 1,
        proxyExecArgv: [],
        baselineRoot: undefined,
        baselineLabel: '',
      });
      if ('skipped' in started) throw new Error(`${name} could not start: ${started.skipped}`);
      targets.push(started.target);
    }
    const startRss = new Map(targets.map((target) => [target.name, target.name === 'direct' ? undefined : memoryKb(target.pids[0]!).rss]));
    const checked = await checkAnswers(mix, targets, settings.checks, settings.seed + 1);
    progress(`read mix ${chain}: ${checked} calls answered alike by every target`);

    const measured = new Map<TargetName, Measured>(
      targets.map((target) => [target.name, { saturated: [], latency: [], hits: 0, misses: 0, cacheMetrics: {}, startRssKb: startRss.get(target.name) }]),
    );
    const connections = settings.connections[chain];
    const load = (target: Target) => ({ url: target.url, headers: target.headers, body: '', pids: target.pids, nextBody: mix.stream(settings.seed) });
    const run = (connectionCount: number, seconds = settings.durationSeconds): LoadSettings => ({
      connections: connectionCount,
      durationSeconds: seconds,
      pipelining: 1,
    });
    let otherCores = 0;
    for (let round = 0; round < settings.rounds; round++) {
      const order = targets.map((_, index) => targets[(index + round) % targets.length]!);
      for (const target of order) {
        const entry = measured.get(target.name)!;
        const charged = target.name === 'direct' ? [] : node.upstream.pids;
        if (settings.warmupSeconds > 0) await runLoad(load(target), run(connections, settings.warmupSeconds));
        const before = await cacheMetrics(target);
        const saturated = await runLoad(load(target), run(connections), charged);
        const after = await cacheMetrics(target);
        entry.hits += (after.node_proxy_cache_hits_total ?? 0) - (before.node_proxy_cache_hits_total ?? 0);
        entry.misses += (after.node_proxy_cache_misses_total ?? 0) - (before.node_proxy_cache_misses_total ?? 0);
        entry.cacheMetrics = after;
        entry.saturated.push(saturated);
        const latency = settings.latencyConnections > 0 ? await runLoad(load(target), run(settings.latencyConnections), charged) : undefined;
        if (latency) entry.latency.push(latency);
        if (target.name !== 'direct') {
          const memory = memoryKb(target.pids[0]!);
          entry.rssKb = memory.rss;
          entry.peakRssKb = memory.peak;
        }
        otherCores = Math.max(otherCores, saturated.otherCores ?? 0, latency?.otherCores ?? 0);
        const failed = saturated.non2xx + saturated.errors + saturated.timeouts;
        progress(
          `read mix round ${round + 1}/${settings.rounds} ${chain} ${target.name}: ${Math.round(saturated.requestsPerSecond)} req/s, ` +
            `p50 ${saturated.p50.toFixed(2)} ms, p99 ${saturated.p99.toFixed(2)} ms` +
            (latency ? `; ${settings.latencyConnections} connection(s): p50 ${latency.p50.toFixed(3)} ms` : '') +
            (failed ? `; ${failed} FAILED` : '') +
            `; other programs ${(saturated.otherCores ?? 0).toFixed(2)} cores`,
        );
      }
    }
    return {
      markdown: chainMarkdown(chain, settings, node, mix, targets, measured, otherCores),
      json: { fillSeconds: node.fillSeconds, history: node.history, targets: Object.fromEntries(measured) },
    };
  } finally {
    for (const target of targets.reverse()) await target.stop().catch((error: unknown) => progress(`could not stop ${target.name}: ${String(error)}`));
    await node.child.stop();
  }
}

function chainMarkdown(
  chain: ReadMixChain,
  settings: ReadMixSettings,
  node: Awaited<ReturnType<typeof startHistoryNode>>,
  mix: ReadMix,
  targets: Target[],
  measured: Map<TargetName, Measured>,
  otherCores: number,
): string {
  const lines: string[] = [];
  const { firstBlock, lastBlock } = node.history;
  const title = chain === 'anvil' ? 'anvil' : 'Litecoin Core (regtest, with -txindex)';
  lines.push(
    `### ${title}: ${lastBlock - firstBlock + 1} old blocks (${firstBlock} – ${lastBlock}) of ${settings.transactions} transactions` +
      `${chain === 'litecoind' ? ' (+ a fan-out and the coinbase)' : ''}, filled in ${node.fillSeconds.toFixed(0)} s`,
  );
  lines.push('');
  lines.push(
    `The mix (distinct calls): ${mix.kinds.map((kind) => `${kind.share} % ${kind.label} (${kind.bodies.length.toLocaleString('en-US')})`).join(', ')}. ` +
      `Transactions asked for: the first ${TRACKED_PER_BLOCK} of each old block. ` +
      `${settings.connections[chain]} connections; ${settings.durationSeconds} s after ${settings.warmupSeconds} s of warm-up` +
      `${settings.rounds > 1 ? `; median over ${settings.rounds} rounds` : ''}; other programs used at most ${otherCores.toFixed(2)} cores during a run.`,
  );
  lines.push('');
  const latencyHeader = settings.latencyConnections > 0 ? ` ${settings.latencyConnections} connection: p50 ms | p99 ms |` : '';
  lines.push(
    `| target | req/s | p50 ms | p99 ms |${latencyHeader} target CPU µs/call | node CPU µs/call | answer B/call | cache hit ratio | RSS MiB (start → end, peak) |`,
  );
  lines.push(`|---|--:|--:|--:|${settings.latencyConnections > 0 ? '--:|--:|' : ''}--:|--:|--:|--:|--:|`);
  const rows = targets.map((target) => {
    const entry = measured.get(target.name)!;
    return { target, entry, saturated: medianResult(entry.saturated), latency: entry.latency.length ? medianResult(entry.latency) : undefined };
  });
  for (const { target, entry, saturated, latency } of rows) {
    const direct = target.name === 'direct';
    const nodeMicros =
      direct || saturated.upstreamCores === undefined ? undefined : ((saturated.upstreamCores * saturated.seconds) / Math.max(saturated.requests, 1)) * 1e6;
    const lookups = entry.hits + entry.misses;
    const failed = entry.saturated.reduce((sum, result) => sum + result.non2xx + result.errors + result.timeouts, 0);
    lines.push(
      `| ${target.label}${failed ? ` ⚠ ${failed} failed` : ''} | ${integer(saturated.requestsPerSecond)} | ${ms(saturated.p50)} | ${ms(saturated.p99)} |` +
        (settings.latencyConnections > 0 ? ` ${latency ? ms(latency.p50) : '–'} | ${latency ? ms(latency.p99) : '–'} |` : '') +
        ` ${direct ? '–' : integer(saturated.targetCpuMicrosPerRequest ?? NaN)} | ${direct ? `${integer(saturated.targetCpuMicrosPerRequest ?? NaN)} (node + driver)` : nodeMicros === undefined ? '–' : integer(nodeMicros)} |` +
        ` ${integer(saturated.bytesPerRequest)} | ${lookups > 0 ? `${((entry.hits / lookups) * 100).toFixed(1)} % (${integer(entry.hits)} / ${integer(lookups)})` : '–'} |` +
        ` ${direct ? '–' : `${mib(entry.startRssKb)} → ${mib(entry.rssKb)}, ${mib(entry.peakRssKb)}`} |`,
    );
  }
  const row = (name: TargetName) => rows.find((each) => each.target.name === name);
  const direct = row('direct');
  const cached = row('node-proxy');
  const uncached = row('node-proxy-no-cache');
  if (direct && cached && uncached) {
    const ratio = cached.saturated.requestsPerSecond / direct.saturated.requestsPerSecond;
    const met = ratio >= 2 && cached.saturated.p50 < direct.saturated.p50;
    lines.push('');
    lines.push(
      `Cached proxy / direct: **${ratio.toFixed(2)}×** req/s, p50 ${ms(cached.saturated.p50)} against ${ms(direct.saturated.p50)} ms ` +
        `(goal: ≥ 2× with a lower p50: ${met ? 'met' : '**not met**'}); without the cache ${(uncached.saturated.requestsPerSecond / direct.saturated.requestsPerSecond).toFixed(2)}×.`,
    );
    const metrics = Object.entries(cached.entry.cacheMetrics);
    if (metrics.length > 0)
      lines.push(`The cached proxy's \`/metrics\` after its last run: ${metrics.map(([name, value]) => `\`${name}\` ${integer(value)}`).join(', ')}.`);
    else lines.push('The proxy reports no `node_proxy_cache_*` metrics: this build has no cache.');
  }
  lines.push('');
  return lines.join('\n');
}

/** The read mix section of `bench:proxy`: one sub-section per chain. */
export async function readMixSection(settings: ReadMixSettings): Promise<{ markdown: string; json: Record<string, unknown> }> {
  const parts: string[] = [];
  const json: Record<string, unknown> = {};
  for (const chain of settings.chains) {
    const { markdown, json: figures } = await measureChain(chain, settings);
    parts.push(markdown);
    json[chain] = figures;
  }
  return { markdown: parts.join('\n'), json };
}
