import { randomUUID } from 'node:crypto';
import cluster from 'node:cluster';
import { exitOnShutdownSignal } from '@cloud/http';
import type { Logger } from '@cloud/logging';
import type { ProxyConfig } from '../config';
import { startNodeProxy } from '../service';
import { isMessage, type WorkerAnswer, type WorkerListening, type WorkerMetrics, type WorkerQuery } from './worker-messages';

/**
 * One worker of a proxy with several (forked by proxy-primary.ts): the whole proxy (routing
 * table, authentication, filter, usage meter) on its own bus connection, like a replica, on the
 * chain ports the primary shares among the workers. It answers the primary's readiness and metrics
 * questions, and leaves when told to or when the primary is gone.
 */
export async function runProxyWorker(config: ProxyConfig, logger: Logger): Promise<void> {
  const worker = cluster.worker!;
  // Its own id in usage messages, so the nodes service's log tells the workers apart (each
  // message has its own id anyway: the nodes service counts every one once).
  const base = config.PROXY_INSTANCE_ID ?? `node-proxy-${randomUUID()}`;
  const proxyId = `${base.slice(0, 110)}-worker-${worker.id}`;
  const proxy = await startNodeProxy({ ...config, PROXY_INSTANCE_ID: proxyId }, { logger, worker: true });
  const answer = async (what: WorkerQuery['what']): Promise<{ metrics?: WorkerMetrics }> => {
    if (what === 'metrics')
      return { metrics: (await Promise.all(proxy.context.metrics.registries.map((registry) => registry.getMetricsAsJSON()))) as WorkerMetrics };
    proxy.checkReady();
    return {};
  };
  process.on('message', (message: unknown) => {
    if (!isMessage<WorkerQuery>(message, 'node-proxy:query')) return;
    answer(message.what).then(
      (result) => process.send?.({ type: 'node-proxy:answer', id: message.id, ...result } satisfies WorkerAnswer),
      (error: unknown) =>
        process.send?.({ type: 'node-proxy:answer', id: message.id, error: error instanceof Error ? error.message : String(error) } satisfies WorkerAnswer),
    );
  });
  exitOnShutdownSignal(logger, () => proxy.close());
  // A primary that died cannot hand this worker connections any more: publish the usage and go.
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  process.send?.({ type: 'node-proxy:listening' } satisfies WorkerListening);
  logger.info('node-proxy worker listening', { worker: worker.id, pid: process.pid, proxyId });
}
