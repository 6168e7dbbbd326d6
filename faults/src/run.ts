// `npm run faults`: the fault suite of issue 21. Starts its own PostgreSQL cluster and RabbitMQ
// node, the five services as separate processes on them, users with eth nodes, then runs the
// experiments under load, prints what each did and exits 1 when any bound was missed.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deadLetters } from './audit';
import { EXPERIMENTS, type ExperimentResult, type Settings } from './experiments';
import { definePlatform, SERVICES, type Platform } from './platform';
import { OwnPostgres } from './postgres';
import { OwnRabbitMq } from './rabbitmq';
import { TcpRelay } from './relay';
import { createUsers } from './setup';
import { freePort, waitFor } from './shell';

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, not ${JSON.stringify(raw)}`);
  return value;
}

const settings: Settings = {
  users: numberFromEnv('FAULTS_USERS', 3),
  outageSeconds: numberFromEnv('FAULTS_OUTAGE_SECONDS', 20),
  warmupSeconds: numberFromEnv('FAULTS_WARMUP_SECONDS', 3),
  afterSeconds: numberFromEnv('FAULTS_AFTER_SECONDS', 4),
  readyBoundSeconds: numberFromEnv('FAULTS_READY_BOUND_SECONDS', 2),
  nodeLeaseSeconds: numberFromEnv('FAULTS_NODE_LEASE_SECONDS', 5),
  settleSeconds: numberFromEnv('FAULTS_SETTLE_SECONDS', 20),
  pauseMs: numberFromEnv('FAULTS_PAUSE_MS', 100),
  brokerOutage: process.env.FAULTS_BROKER_OUTAGE === 'node' ? 'node' : 'relay',
};
if (!['', 'node', 'relay', undefined].includes(process.env.FAULTS_BROKER_OUTAGE)) throw new Error('FAULTS_BROKER_OUTAGE must be relay or node');
const chosen = (process.env.FAULTS_EXPERIMENTS ?? Object.keys(EXPERIMENTS).join(','))
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);

const log = (line: string) => process.stdout.write(`${line}\n`);
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;

function report(result: ExperimentResult): void {
  const statuses =
    Object.entries(result.apiByStatus)
      .map(([status, count]) => `${status === '0' ? 'no answer' : status}: ${count}`)
      .join(', ') || '-';
  log(`  API calls ${result.apiCalls} (${statuses}); 500s ${result.api500}; 503 without Retry-After ${result.api503WithoutRetryAfter}`);
  const not2xx = Object.entries(result.apiNot2xxByService).map(([key, count]) => `${key}: ${count}`);
  if (not2xx.length > 0) log(`  API answers other than 2xx by service: ${not2xx.join(', ')}`);
  log(`  proxied RPC calls ${result.rpcCalls}, failed ${result.rpcFailed}`);
  if (result.events) {
    const e = result.events;
    const lostBy = Object.entries(e.lostByService)
      .map(([service, count]) => `${service} ${count}`)
      .join(', ');
    log(
      `  call events: successful calls ${e.successful}, stored ${e.stored}, lost ${e.lost}${lostBy ? ` (${lostBy})` : ''}${e.lostInWindow ? ` of which ${e.lostInWindow} in the kill window` : ''}, doubled ${e.doubled}`,
    );
  }
  if (result.stuckOutboxRows !== undefined) log(`  outbox rows stuck ${result.stuckOutboxRows}; dead letters ${result.deadLetters}`);
  log(`  every /readyz 200 after ${result.readyAfterMs === undefined ? 'never' : `${(result.readyAfterMs / 1000).toFixed(1)} s`}`);
  for (const note of result.notes) log(`  - ${note}`);
  log(result.failures.length === 0 ? '  PASS' : `  FAIL: ${result.failures.join('; ')}`);
}

/** Stops the hosted nodes' processes the suite's nodes service left running (they are ours: they run from our folder). */
function stopNodeProcesses(nodesDir: string): void {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(nodesDir + path.sep)) process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
}

async function main(): Promise<number> {
  for (const name of chosen) if (!EXPERIMENTS[name]) throw new Error(`FAULTS_EXPERIMENTS: no experiment "${name}" (${Object.keys(EXPERIMENTS).join(', ')})`);
  const dir = mkdtempSync(path.join(tmpdir(), 'faults-'));
  chmodSync(dir, 0o755); // the postgres and rabbitmq users reach their folders inside
  log(`fault suite: ${JSON.stringify(settings)}; experiments ${chosen.join(', ')}; files in ${dir}`);
  const db = new OwnPostgres(path.join(dir, 'postgres'), await freePort());
  const broker = new OwnRabbitMq(path.join(dir, 'rabbitmq'), await freePort(), await freePort());
  let platform: Platform | undefined;
  let failed = true;
  const tearDown = async () => {
    if (platform) {
      await Promise.all([...SERVICES.map((name) => platform!.services[name].stop('SIGTERM')), platform.nodesB.stop('SIGTERM')]);
      stopNodeProcesses(platform.nodesDir);
    }
    await Promise.all([db.destroy(), broker.destroy()]);
  };
  // Interrupted (Ctrl-C, a CI time-out): the servers and node processes are still ours to stop.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping what the suite started`);
      void tearDown().finally(() => {
        if (process.env.FAULTS_KEEP === '1') log(`files kept in ${dir}`);
        else rmSync(dir, { recursive: true, force: true });
        process.exit(130);
      });
    });
  }
  try {
    await Promise.all([db.init(), broker.start()]);
    log(`PostgreSQL on ${db.port}, RabbitMQ node ${broker.nodeName} on ${broker.port} (${elapsed()})`);
    const brokerRelay = new TcpRelay(await freePort(), broker.port);
    await brokerRelay.open();
    platform = await definePlatform({
      dir,
      databaseUrl: db.url,
      amqpUrl: `amqp://guest:guest@127.0.0.1:${brokerRelay.port}`,
      nodeLeaseSeconds: settings.nodeLeaseSeconds,
    });
    // Accounts first: it makes the key files the others share ($DATA_DIR/keys) and migrates alone.
    const { services } = platform;
    services.accounts.start();
    await services.accounts.listening();
    for (const name of SERVICES.slice(1)) services[name].start();
    for (const name of SERVICES) await waitFor(`${name} to be ready`, () => services[name].ready(), 60_000);
    const users = await createUsers(platform, settings.users);
    log(`services ready, ${users.length} users with a running eth node each (${elapsed()})`);
    const deadLetterCount = { count: await deadLetters(broker) };
    const results: ExperimentResult[] = [];
    for (const name of chosen) {
      const result = await EXPERIMENTS[name]!({ platform, db, broker, brokerRelay, deadLetters: deadLetterCount, users, settings, log });
      report(result);
      results.push(result);
      log(`  (${elapsed()})`);
    }
    const failing = results.filter((r) => r.failures.length > 0);
    log(
      `\n${results.length - failing.length} of ${results.length} experiments passed${failing.length ? `; failed: ${failing.map((r) => r.name).join(' | ')}` : ''} (${elapsed()})`,
    );
    failed = failing.length > 0;
    return failed ? 1 : 0;
  } finally {
    await tearDown();
    if (failed && process.env.FAULTS_KEEP !== '0') log(`service logs kept in ${dir}`);
    else if (process.env.FAULTS_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`fault suite failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
