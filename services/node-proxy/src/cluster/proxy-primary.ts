import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, Counter, Gauge, Registry } from 'prom-client';
import { serveHttp } from '@cloud/http';
import type { Logger } from '@cloud/logging';
import { createAdminApp } from '../admin-app';
import type { ProxyConfig } from '../config';
import { loadProxyCertificate } from '../tls/proxy-certificate';
import { isMessage, type WorkerAnswer, type WorkerListening, type WorkerQuery } from './worker-messages';

/** A worker that dies before it listens is forked again after this, doubling up to the cap. */
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;
/** How long a worker has to answer a question (readiness, metrics). */
const ANSWER_TIMEOUT_MS = 2000;

export interface ProxyPrimary {
  adminUrl: string;
  close(): Promise<void>;
}

/**
 * The primary of a proxy with several workers (PROXY_WORKERS > 1): forks them (they share the
 * chain ports, which node:cluster hands out round-robin), replaces one that dies, and serves the
 * admin port itself, so `/metrics` sums every listening worker (each sends its metrics over IPC;
 * prom-client's AggregatorRegistry adds them up) whichever process a scrape would have reached,
 * and `/readyz` answers for the whole proxy. It handles no call and opens no bus. Only listening
 * workers are asked: one still starting has nothing to report and could not answer yet.
 */
export async function runProxyPrimary(config: ProxyConfig, logger: Logger, workers: number): Promise<ProxyPrimary> {
  // Made here once, so the workers read one certificate instead of racing to make their own.
  if (config.PROXY_TLS === 'on') await loadProxyCertificate(config);

  const registry = new Registry();
  const listening = new Gauge({ name: 'node_proxy_workers', help: 'Proxy worker processes listening on the chain ports', registers: [registry] });
  new Gauge({ name: 'node_proxy_workers_wanted', help: 'PROXY_WORKERS: the worker processes the proxy keeps', registers: [registry] }).set(workers);
  const replaced = new Counter({
    name: 'node_proxy_worker_restarts_total',
    help: 'Proxy workers that exited unasked and were forked again',
    registers: [registry],
  });

  const ready = new Set<number>();
  let failedStarts = 0;
  let stopping = false;
  const pendingForks = new Set<NodeJS.Timeout>();

  // The first worker starts alone and the others once it listens (or exits): the proxy is ready
  // with one, and workers starting together share the cores, so each took as long as all of them
  // (start-up is CPU-bound: Node.js loading the proxy's modules; RELIABILITY.md, issue 29 item 11).
  let others = workers - 1;
  const forkOthers = () => {
    for (; others > 0; others -= 1) fork();
  };
  const fork = () => {
    const worker = cluster.fork();
    worker.on('message', (message: unknown) => {
      if (!isMessage<WorkerListening>(message, 'node-proxy:listening')) return;
      ready.add(worker.id);
      listening.set(ready.size);
      failedStarts = 0;
      forkOthers();
    });
  };
  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
    const wasListening = ready.delete(worker.id);
    listening.set(ready.size);
    if (stopping) return;
    forkOthers();
    replaced.inc();
    // One that served for a while is replaced at once; one that never got to listen (bus
    // unreachable, a port taken) is retried ever more slowly, so a broken start is no fork loop.
    if (!wasListening) failedStarts += 1;
    const delayMs = wasListening ? 0 : Math.min(FIRST_BACKOFF_MS * 2 ** (failedStarts - 1), MAX_BACKOFF_MS);
    logger.error('node-proxy worker exited; forking a replacement', { worker: worker.id, pid: worker.process.pid, code, signal, delayMs });
    const timer = setTimeout(() => {
      pendingForks.delete(timer);
      fork();
    }, delayMs);
    pendingForks.add(timer);
  });
  fork();

  let nextQuery = 0;
  const ask = (worker: Worker, what: WorkerQuery['what']) =>
    new Promise<WorkerAnswer>((resolve, reject) => {
      const id = nextQuery++;
      const timer = setTimeout(() => finish(new Error(`worker ${worker.id} did not answer`)), ANSWER_TIMEOUT_MS);
      const onMessage = (message: unknown) => {
        if (isMessage<WorkerAnswer>(message, 'node-proxy:answer') && message.id === id)
          finish(message.error ? new Error(`worker ${worker.id}: ${message.error}`) : undefined, message);
      };
      const finish = (error?: Error, answer?: WorkerAnswer) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        if (error) reject(error);
        else resolve(answer!);
      };
      worker.on('message', onMessage);
      worker.send({ type: 'node-proxy:query', id, what } satisfies WorkerQuery);
    });
  const serving = () => Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => !!worker && ready.has(worker.id));
  // Ready while at least one worker listens and every listening one is ready: a worker being
  // replaced takes no connections meanwhile, so the others serving is enough.
  const checkWorkers = async () => {
    const workers = serving();
    if (workers.length === 0) throw new Error('no proxy worker is listening yet');
    await Promise.all(workers.map((worker) => ask(worker, 'readiness')));
  };
  const scrape = async () => {
    const answers = await Promise.all(serving().map((worker) => ask(worker, 'metrics')));
    const summed = AggregatorRegistry.aggregate(answers.flatMap((answer) => answer.metrics ?? []));
    return { contentType: registry.contentType, text: (await registry.metrics()) + (await summed.metrics()) };
  };

  const admin = await serveHttp(
    createAdminApp({
      logger,
      metrics: scrape,
      readiness: [{ name: 'proxy workers', check: checkWorkers }],
    }),
    { port: config.PROXY_ADMIN_PORT, host: config.PROXY_ADMIN_HOST, logger, name: 'node-proxy admin' },
  );
  logger.info('node-proxy primary started', { workers, pid: process.pid });

  return {
    adminUrl: admin.url,
    /** Asks every worker to stop (each publishes its last usage), waits for them, then closes the admin port. */
    async close() {
      stopping = true;
      for (const timer of pendingForks) clearTimeout(timer);
      const alive = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => !!worker && !worker.isDead());
      await Promise.all(
        alive.map(
          (worker) =>
            new Promise<void>((resolve) => {
              worker.once('exit', () => resolve());
              worker.process.kill('SIGTERM');
            }),
        ),
      );
      await admin.close();
    },
  };
}
