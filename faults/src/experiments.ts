// The experiments of issue 21 (item 4), each under the steady load, and the bounds each must keep.
import { auditNodes, compareUsage, deadLetters, nodesSettled, quietUsage, settle, type EventAudit } from './audit';
import { Load, type ApiResult, type RpcResult } from './load';
import { SERVICES, type Platform, type ServiceProcess } from './platform';
import type { OwnPostgres } from './postgres';
import type { OwnRabbitMq } from './rabbitmq';
import type { TcpRelay } from './relay';
import { ReadinessWatch } from './readiness';
import type { LoadUser } from './setup';
import { sleep, waitFor } from './shell';
import { accountsDownStart } from './experiments/accounts-down-start';
import { brokerDownStart } from './experiments/broker-down-start';
import { databaseOutage } from './experiments/database-outage';
import { nodeBusy } from './experiments/node-busy';
import { nodesRestart } from './experiments/nodes-restart';
import { poolCallerErrors } from './experiments/pool-caller-errors';
import { poolFailover } from './experiments/pool-failover';
import { poolHeads } from './experiments/pool-heads';
import { streamsRestarts } from './experiments/streams-restarts';

export interface Settings {
  users: number;
  outageSeconds: number;
  warmupSeconds: number;
  afterSeconds: number;
  readyBoundSeconds: number;
  nodeLeaseSeconds: number;
  settleSeconds: number;
  pauseMs: number;
  /** relay: cut the TCP relay (default); node: stop_app/start_app the RabbitMQ node itself, slower. */
  brokerOutage: 'relay' | 'node';
}

export interface Context {
  platform: Platform;
  db: OwnPostgres;
  broker: OwnRabbitMq;
  /** What the services reach the broker through; cut for the broker outage. */
  brokerRelay: TcpRelay;
  /** Dead letters counted after the previous experiment. */
  deadLetters: { count: number };
  users: LoadUser[];
  settings: Settings;
  log: (line: string) => void;
}

export interface ExperimentResult {
  name: string;
  apiCalls: number;
  apiByStatus: Record<string, number>;
  /** Answers other than 2xx, by service and status ("nodes 503"). */
  apiNot2xxByService: Record<string, number>;
  api500: number;
  /** 503 answers without a Retry-After header. */
  api503WithoutRetryAfter: number;
  rpcCalls: number;
  rpcFailed: number;
  events?: EventAudit;
  stuckOutboxRows?: number;
  deadLetters?: number;
  /** Milliseconds from the end of the fault until every /readyz answered 200. */
  readyAfterMs?: number;
  notes: string[];
  /** Bounds missed; empty when the experiment passed. */
  failures: string[];
}

/** What a fault reports back: when it ended (readiness is timed from there) and its own checks. */
export interface FaultOutcome {
  endedAt: number;
  check(load: Load, watch: ReadinessWatch): { failures: string[]; notes: string[] };
  /**
   * Whether a lost event falls in the fault's documented loss window (a service SIGKILLed just
   * after answering, before the event was written): counted and reported apart, not a failure.
   * Any other loss is.
   */
  inLossWindow?(call: ApiResult): boolean;
}

/**
 * A service writes a call's event after the response (recording never slows or fails a call), so
 * a SIGKILL loses the events of the calls it answered in the moment before: those answered at
 * most this long before the kill (RELIABILITY.md: the measured window).
 */
export const KILL_LOSS_WINDOW_MS = 1000;

/** Whether `call` was answered by `service` within the kill window before it was SIGKILLed at `killedAt`. */
export const answeredJustBeforeKill = (call: ApiResult, service: string, killedAt: number) =>
  call.service === service && call.at <= killedAt && killedAt - call.at <= KILL_LOSS_WINDOW_MS;

export const mainServices = (platform: Platform): ServiceProcess[] => SERVICES.map((name) => platform.services[name]);
export const isApiFailure = (status: number) => status === 0 || status >= 500;
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Runs `fault` under the steady load and checks what every experiment must keep (events, outbox, dead letters, readiness). */
export async function underLoad(ctx: Context, id: string, name: string, fault: () => Promise<FaultOutcome>): Promise<ExperimentResult> {
  const { platform, db, broker, users, settings } = ctx;
  ctx.log(`== ${name}`);
  const load = new Load(platform, users, `faults-${id}-${Date.now()}-`, settings.pauseMs);
  const watch = new ReadinessWatch(mainServices(platform));
  watch.start();
  load.start();
  await sleep(settings.warmupSeconds * 1000);
  const outcome = await fault();
  await sleep(settings.afterSeconds * 1000);
  await load.stop();
  // Readiness is timed to the end, however late, within reason.
  await waitFor('every /readyz to answer 200', async () => (await Promise.all(mainServices(platform).map((s) => s.ready()))).every(Boolean), 30_000).catch(
    () => undefined,
  );
  await watch.stop();
  const own = outcome.check(load, watch);
  const { stuckOutboxRows, events } = await settle(db, load, settings.settleSeconds * 1000);
  const deadNow = await deadLetters(broker);
  const dead = deadNow - ctx.deadLetters.count;
  ctx.deadLetters.count = deadNow;
  const readyAfterMs = watch.allReadyAfter(outcome.endedAt);
  const apiByStatus: Record<string, number> = {};
  const apiNot2xxByService: Record<string, number> = {};
  for (const r of load.api) {
    apiByStatus[String(r.status)] = (apiByStatus[String(r.status)] ?? 0) + 1;
    const key = `${r.service} ${r.status === 0 ? 'no answer' : r.status}`;
    if (r.status < 200 || r.status > 299) apiNot2xxByService[key] = (apiNot2xxByService[key] ?? 0) + 1;
  }
  const failures = [...own.failures];
  const notes = [...own.notes];
  const lostOutside = events.lostCalls.filter((r) => !outcome.inLossWindow?.(r));
  const inWindow = events.lost - lostOutside.length;
  if (outcome.inLossWindow) events.lostInWindow = inWindow;
  // Named with their answer time, to be found in the service logs the suite keeps when it fails.
  for (const r of lostOutside) notes.push(`lost: ${r.service} call ${r.requestId} answered at ${new Date(r.at).toISOString()}`);
  if (lostOutside.length > 0)
    failures.push(`${lostOutside.length} call events of successful calls lost${inWindow > 0 ? ` (besides ${inWindow} in the kill window)` : ''}`);
  if (inWindow > 0)
    notes.push(`${inWindow} call events lost of calls answered within ${KILL_LOSS_WINDOW_MS} ms before their service was SIGKILLed (the documented window)`);
  if (events.doubled > 0) failures.push(`${events.doubled} call events doubled`);
  if (stuckOutboxRows > 0) failures.push(`${stuckOutboxRows} outbox rows stuck after ${settings.settleSeconds} s`);
  if (dead > 0) failures.push(`${dead} messages dead-lettered`);
  if (readyAfterMs === undefined) failures.push('not every /readyz answered 200 again');
  else if (readyAfterMs > settings.readyBoundSeconds * 1000)
    failures.push(`every /readyz 200 only ${seconds(readyAfterMs)} after the fault (bound ${settings.readyBoundSeconds} s)`);
  return {
    name,
    apiCalls: load.api.length,
    apiByStatus,
    apiNot2xxByService,
    api500: load.api.filter((r) => r.status === 500).length,
    api503WithoutRetryAfter: load.api.filter((r) => r.status === 503 && !r.retryAfter).length,
    rpcCalls: load.rpc.length,
    rpcFailed: load.rpc.filter((r) => !r.ok).length,
    events,
    stuckOutboxRows,
    deadLetters: dead,
    readyAfterMs,
    notes: [...notes, ...[...load.samples].map(([kind, body]) => `first ${kind}: ${body}`)],
    failures,
  };
}

/** 1. RabbitMQ gone for the outage: the proxy stays ready and serving, the APIs keep answering. */
export function brokerOutage(ctx: Context): Promise<ExperimentResult> {
  return underLoad(
    ctx,
    'broker',
    `1. RabbitMQ away ${ctx.settings.outageSeconds} s under load (${ctx.settings.brokerOutage === 'node' ? 'stop_app' : 'relay cut'})`,
    async () => {
      const from = Date.now();
      if (ctx.settings.brokerOutage === 'node') await ctx.broker.stopApp();
      else await ctx.brokerRelay.cut();
      await sleep(ctx.settings.outageSeconds * 1000);
      if (ctx.settings.brokerOutage === 'node') await ctx.broker.startApp();
      else await ctx.brokerRelay.open();
      const endedAt = Date.now();
      return {
        endedAt,
        check(load, watch) {
          const failures: string[] = [];
          const during = (at: number) => at >= from && at <= endedAt;
          if (watch.unreadyDuring(from, endedAt, 'node-proxy').length > 0) failures.push('node-proxy /readyz was not 200 during the broker outage');
          const rpcFailed = load.rpc.filter((r) => during(r.at) && !r.ok).length;
          if (rpcFailed > 0) failures.push(`${rpcFailed} proxied RPC calls failed during the broker outage`);
          const unanswered = load.api.filter((r) => during(r.at) && isApiFailure(r.status)).length;
          if (unanswered > 0) failures.push(`${unanswered} API calls failed (5xx or no answer) during the broker outage`);
          const unready = watch.unreadyDuring(from, endedAt);
          return { failures, notes: [`outage ${seconds(endedAt - from)}; /readyz not 200 during it: ${unready.join(', ') || 'none'}`] };
        },
      };
    },
  );
}

/**
 * The proxy publishes the usage it counted every PROXY_USAGE_INTERVAL_MS (its default, 5 s): a
 * SIGKILL loses what it counted since, at most the calls of one interval (RELIABILITY.md).
 */
export const PROXY_USAGE_INTERVAL_MS = 5000;

/**
 * The proxy (primary and workers) answers /readyz 200 within this of its SIGKILL: measured 1.7 –
 * 7.3 s under this suite's load on a 2-core machine also running other work (RELIABILITY.md).
 */
export const PROXY_RESTART_BOUND_MS = 10_000;

/** 3. Each service SIGKILLed under load and started again at once. */
export async function killEach(ctx: Context): Promise<ExperimentResult> {
  const usageBefore = await quietUsage(ctx.db, PROXY_USAGE_INTERVAL_MS + 2000, 60_000);
  const made: { calls: readonly RpcResult[]; proxyKilledAt: number } = { calls: [], proxyKilledAt: 0 };
  const result = await underLoad(ctx, 'kill', '3. each service SIGKILLed under load and restarted', async () => {
    const notes: string[] = [];
    const failures: string[] = [];
    const windows: { name: string; from: number; to: number; readyAt: number }[] = [];
    let endedAt = Date.now();
    for (const name of SERVICES) {
      const service = ctx.platform.services[name];
      const killedAt = Date.now();
      // The proxy with its workers, so its usage meters die unflushed.
      if (name === 'node-proxy') made.proxyKilledAt = killedAt;
      await (name === 'node-proxy' ? service.killWithChildren() : service.stop('SIGKILL'));
      service.start();
      const listenedAt = await service.listening();
      const readyMs = await timeUntilReady(service, 60_000);
      const readyAt = Date.now();
      notes.push(
        `${name}: listening ${seconds(listenedAt - killedAt)} after the kill, ready ${readyMs === undefined ? 'never' : seconds(readyMs)} after listening (${seconds(readyAt - killedAt)} after the kill)`,
      );
      if (readyMs === undefined || readyMs > ctx.settings.readyBoundSeconds * 1000)
        failures.push(`${name} not ready within ${ctx.settings.readyBoundSeconds} s of listening after its restart`);
      // The proxy's primary listens before its workers, which serve: bounded from the kill too.
      if (name === 'node-proxy' && readyAt - killedAt > PROXY_RESTART_BOUND_MS)
        failures.push(`node-proxy ready only ${seconds(readyAt - killedAt)} after its SIGKILL (bound ${PROXY_RESTART_BOUND_MS / 1000} s)`);
      endedAt = Date.now();
      await sleep(ctx.settings.afterSeconds * 1000);
      windows.push({ name, from: killedAt, to: Date.now(), readyAt });
    }
    return {
      endedAt,
      inLossWindow: (r) => windows.some((w) => answeredJustBeforeKill(r, w.name, w.from)),
      check(load) {
        made.calls = load.rpc;
        // Until the proxy is ready again (a load balancer sends it nothing before) its calls fail by
        // definition; any other failure is the data plane failing with a control-plane process.
        for (const w of windows) {
          const failed = load.rpc.filter((r) => !r.ok && r.at >= w.from && r.at < w.to && !(w.name === 'node-proxy' && r.at <= w.readyAt)).length;
          if (failed > 0)
            failures.push(`${failed} proxied RPC calls failed after ${w.name} was killed${w.name === 'node-proxy' ? ' (once it was ready again)' : ''}`);
        }
        return { failures, notes };
      },
    };
  });
  // Every answered call is counted once, but those the proxy counted in the interval before its
  // SIGKILL, not published yet: at most the calls answered in the interval before the kill.
  const answered = made.calls.filter((r) => r.ok);
  const lossBound = answered.filter((r) => r.at <= made.proxyKilledAt && made.proxyKilledAt - r.at <= PROXY_USAGE_INTERVAL_MS).length;
  const usage = compareUsage(usageBefore, await quietUsage(ctx.db, PROXY_USAGE_INTERVAL_MS + 2000, 60_000), answered);
  result.notes.unshift(
    `usage counted ${usage.counted} of the ${usage.made} answered proxied calls: ${usage.lost} lost in the proxy's SIGKILL (bound: the ${lossBound} answered in the ${PROXY_USAGE_INTERVAL_MS / 1000} s before it), ${usage.extra} counted beyond`,
  );
  if (usage.lost > lossBound)
    result.failures.push(
      `${usage.lost} proxied calls missing from the usage, more than the ${lossBound} answered in the usage interval before the proxy's SIGKILL`,
    );
  // A call that failed at the client (its answer cut by the kill) may have been counted; never more than every call made.
  if (usage.counted > made.calls.length) result.failures.push(`usage counts ${usage.counted} proxied calls, more than the ${made.calls.length} made`);
  return result;
}

/** 4. Two nodes-service instances; one SIGKILLed: the other takes its nodes, none orphaned or run twice. */
export function twoNodesInstances(ctx: Context): Promise<ExperimentResult> {
  const { platform, db, settings } = ctx;
  return underLoad(ctx, 'two-nodes', '4. two nodes-service instances, one SIGKILLed', async () => {
    const failures: string[] = [];
    const notes: string[] = [];
    platform.nodesB.start();
    await platform.nodesB.listening();
    await waitFor('nodes-b to be ready', () => platform.nodesB.ready(), 30_000);
    const killedAt = Date.now();
    await platform.services.nodes.stop('SIGKILL');
    const takeoverBound = (settings.nodeLeaseSeconds + 10) * 1000;
    let takenOver = true;
    await waitFor(
      'nodes-b to own every node',
      async () => (await auditNodes(db, platform.nodesDir)).every((n) => n.state !== 'running' || n.owner === 'nodes-b'),
      takeoverBound,
      250,
    ).catch(() => {
      takenOver = false;
    });
    const takeoverMs = Date.now() - killedAt;
    notes.push(
      takenOver ? `nodes-b owned every node ${seconds(takeoverMs)} after the kill (lease ${settings.nodeLeaseSeconds} s)` : 'nodes-b never owned every node',
    );
    if (!takenOver) failures.push(`nodes-b did not take over within ${takeoverBound / 1000} s`);
    const nodeBound = (settings.nodeLeaseSeconds + 10) * 1000;
    const afterTakeover = await nodesSettled(db, platform.nodesDir, ['nodes-b'], nodeBound);
    notes.push(`every node with one process under nodes-b ${seconds(Date.now() - killedAt)} after the kill`);
    // Back to one instance: the killed one restarts, the second stops cleanly and hands its nodes back.
    platform.services.nodes.start();
    await platform.services.nodes.listening();
    await platform.nodesB.stop('SIGTERM');
    await waitFor(
      'nodes-a to own every node again',
      async () => (await auditNodes(db, platform.nodesDir)).every((n) => n.state !== 'running' || n.owner === 'nodes-a'),
      takeoverBound,
      250,
    ).catch(() => {
      failures.push('nodes-a did not own every node again after nodes-b stopped');
    });
    const endedAt = Date.now();
    const afterHandBack = await nodesSettled(db, platform.nodesDir, ['nodes-a'], nodeBound);
    failures.push(
      ...afterTakeover.problems.map((p) => `${nodeBound / 1000} s after the takeover: ${p}`),
      ...afterHandBack.problems.map((p) => `${nodeBound / 1000} s after the hand-back: ${p}`),
    );
    return {
      endedAt,
      // The load's nodes calls go to the killed instance: the same kill window as in experiment 3.
      inLossWindow: (r) => answeredJustBeforeKill(r, 'nodes', killedAt),
      check(load) {
        // The issue bounds orphans and doubles here, not the proxied calls: reported for the record.
        const failed = load.rpc.filter((r) => !r.ok);
        if (failed.length > 0)
          notes.push(
            `${failed.length} proxied RPC calls failed, from +${seconds(failed[0]!.at - killedAt)} to +${seconds(failed[failed.length - 1]!.at - killedAt)} after the kill`,
          );
        return { failures, notes };
      },
    };
  });
}

/** 5. The five services started at once: every /readyz 200 within the bound after the last one listens. */
export async function startTogether(ctx: Context): Promise<ExperimentResult> {
  const { platform, db, settings } = ctx;
  const name = '5. five services started at once';
  ctx.log(`== ${name}`);
  const services = mainServices(platform);
  await Promise.all(services.map((s) => s.stop('SIGTERM')));
  for (const s of services) s.start();
  const listenedAt = await Promise.all(services.map((s) => s.listening()));
  const lastListening = Math.max(...listenedAt);
  const readyMs = await Promise.all(services.map((s) => timeUntilReady(s, 60_000, lastListening)));
  const failures: string[] = [];
  const notes = services.map((s, i) => {
    const ready = readyMs[i];
    return `${s.name}: listening +${seconds(listenedAt[i]! - Math.min(...listenedAt))}, ready ${ready === undefined ? 'never' : `${seconds(ready)} after the last listened`}`;
  });
  const worst = readyMs.some((ms) => ms === undefined) ? undefined : Math.max(...(readyMs as number[]));
  if (worst === undefined || worst > settings.readyBoundSeconds * 1000)
    failures.push(`not all ready within ${settings.readyBoundSeconds} s of the last listening (${worst === undefined ? 'never' : seconds(worst)})`);
  // The hosted nodes outlived the restart of everything, each once.
  const nodeBound = (settings.nodeLeaseSeconds + 10) * 1000;
  const { problems } = await nodesSettled(db, platform.nodesDir, ['nodes-a'], nodeBound);
  failures.push(...problems.map((p) => `${nodeBound / 1000} s after the start: ${p}`));
  return {
    name,
    apiCalls: 0,
    apiByStatus: {},
    apiNot2xxByService: {},
    api500: 0,
    api503WithoutRetryAfter: 0,
    rpcCalls: 0,
    rpcFailed: 0,
    readyAfterMs: worst,
    notes,
    failures,
  };
}

/** Milliseconds from `since` (default now) until `service` answers /readyz 200; undefined past `timeoutMs`. */
async function timeUntilReady(service: ServiceProcess, timeoutMs: number, since = Date.now()): Promise<number | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await service.ready()) return Math.max(0, Date.now() - since);
    await sleep(50);
  }
  return undefined;
}

export const EXPERIMENTS: Record<string, (ctx: Context) => Promise<ExperimentResult>> = {
  broker: brokerOutage,
  postgres: databaseOutage,
  kill: killEach,
  'two-nodes': twoNodesInstances,
  startup: startTogether,
  // Issue 29's experiments, one file each under experiments/, registered here.
  'accounts-down-start': accountsDownStart,
  'broker-down-start': brokerDownStart,
  'nodes-restart': nodesRestart,
  'node-busy': nodeBusy,
  // Issue 31's pools (experiments/pool-*.ts): failover, and routing by the members' heads.
  'pool-failover': poolFailover,
  'pool-heads': poolHeads,
  'pool-caller-errors': poolCallerErrors,
  // Issue 32's streams: nothing lost or reordered through a broker restart and the service's SIGKILL.
  streams: streamsRestarts,
};
