/**
 * One load run with autocannon against one target, with the latency of every response kept at
 * microsecond resolution: autocannon's own histogram records whole milliseconds, too coarse for a
 * 0.3 ms target, so its `response` event (which carries the exact time) is recorded here instead.
 * The CPU time the target's processes used during the run is read from /proc (Linux).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface LoadSettings {
  connections: number;
  durationSeconds: number;
  pipelining: number;
}

export interface LoadTarget {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** When given, each request's body instead: the next one this returns (a mix of calls, `read-mix.ts`). */
  nextBody?: () => string;
  /** Processes whose CPU time is charged to the target (its own, not the upstream's). */
  pids: number[];
  /** TLS server name for an https URL (the certificate is not checked: the proxy's own is self-signed). */
  servername?: string | undefined;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  /** Milliseconds. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Bytes of the answers (headers included), per request. */
  bytesPerRequest: number;
  /** Answers other than 2xx, connection errors and timeouts: any of them makes the run invalid. */
  non2xx: number;
  errors: number;
  timeouts: number;
  /** CPU seconds the target's processes used, per second of the run (1 = one full core); undefined off Linux. */
  targetCores?: number;
  upstreamCores?: number;
  /** The load generator's (this process's) CPU, in cores. */
  loadCores: number;
  /** Target CPU per request, microseconds. */
  targetCpuMicrosPerRequest?: number;
  /**
   * CPU the whole machine used beyond the target, the upstream and autocannon, in cores: other
   * programs (a disturbed run), and kernel work charged to no process (some of the loopback's).
   */
  otherCores?: number;
}

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** The pid and its children (nginx's workers), as /proc lists them. */
function withChildren(pid: number): number[] {
  try {
    const tasks = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return [pid, ...(tasks ? tasks.split(/\s+/).map(Number) : [])];
  } catch {
    return [pid];
  }
}

/** User + system CPU seconds of these processes (all their threads), or undefined without /proc. */
function cpuSeconds(pids: number[]): number | undefined {
  let ticks = 0;
  for (const pid of new Set(pids.flatMap(withChildren))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return undefined;
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / clockTicks();
}

/** CPU seconds the whole machine was busy (all CPUs, /proc/stat), or undefined without it. */
function machineBusySeconds(): number | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    return (user + nice + system + irq + softirq + steal) / clockTicks();
  } catch {
    return undefined;
  }
}

function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index]!;
}

/** autocannon's per-request hook: the request with the next body of the mix. */
const withNextBody =
  (nextBody: () => string) =>
  (request: autocannon.RequestData): autocannon.RequestData => {
    request.body = nextBody();
    return request;
  };

export async function runLoad(target: LoadTarget, settings: LoadSettings, upstreamPids: number[] = []): Promise<LoadResult> {
  let times = new Float64Array(1 << 16);
  let count = 0;
  let bytes = 0;
  const targetBefore = cpuSeconds(target.pids);
  const upstreamBefore = cpuSeconds(upstreamPids);
  const loadBefore = process.cpuUsage();
  const machineBefore = machineBusySeconds();
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        connections: settings.connections,
        duration: settings.durationSeconds,
        pipelining: settings.pipelining,
        method: 'POST',
        headers: target.headers,
        body: target.body,
        timeout: 10,
        ...(target.servername ? { servername: target.servername } : {}),
        ...(target.nextBody ? { requests: [{ setupRequest: withNextBody(target.nextBody) }] } : {}),
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client: unknown, _status: number, answerBytes: number, responseTime: number) => {
      bytes += answerBytes;
      if (count === times.length) {
        const grown = new Float64Array(times.length * 2);
        grown.set(times);
        times = grown;
      }
      times[count++] = responseTime;
    });
  });
  const seconds = (performance.now() - started) / 1000;
  const loadUsage = process.cpuUsage(loadBefore);
  const targetAfter = cpuSeconds(target.pids);
  const upstreamAfter = cpuSeconds(upstreamPids);
  const machineAfter = machineBusySeconds();
  const sorted = times.slice(0, count).sort();
  const requests = result.requests.total;
  const targetCpu = targetBefore === undefined || targetAfter === undefined ? undefined : targetAfter - targetBefore;
  const upstreamCpu = upstreamBefore === undefined || upstreamAfter === undefined ? undefined : upstreamAfter - upstreamBefore;
  const loadCores = (loadUsage.user + loadUsage.system) / 1e6 / seconds;
  const machineCores = machineBefore === undefined || machineAfter === undefined ? undefined : (machineAfter - machineBefore) / seconds;
  const otherCores =
    machineCores === undefined || targetCpu === undefined
      ? undefined
      : Math.max(0, machineCores - targetCpu / seconds - (upstreamCpu ?? 0) / seconds - loadCores);
  return {
    requests,
    seconds: result.duration,
    requestsPerSecond: requests / result.duration,
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    p99: percentile(sorted, 0.99),
    max: percentile(sorted, 1),
    bytesPerRequest: bytes / Math.max(count, 1),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    ...(targetCpu === undefined ? {} : { targetCores: targetCpu / seconds, targetCpuMicrosPerRequest: (targetCpu / Math.max(requests, 1)) * 1e6 }),
    ...(upstreamCpu === undefined ? {} : { upstreamCores: upstreamCpu / seconds }),
    loadCores,
    ...(otherCores === undefined ? {} : { otherCores }),
  };
}
