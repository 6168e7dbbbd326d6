// Runs the node-proxy alone, configured by the environment (`npm start -w services/node-proxy`):
// one process, or with PROXY_WORKERS > 1 a primary and that many workers sharing the ports.
import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { exitOnShutdownSignal, exitWithError } from '@cloud/http';
import { createLogger } from '@cloud/logging';
import { runProxyPrimary } from './cluster/proxy-primary';
import { runProxyWorker } from './cluster/proxy-worker';
import { loadProxyConfig } from './config';
import { PROXY_SERVICE_NAME, startNodeProxy } from './service';

async function main() {
  const config = loadProxyConfig();
  const logger = createLogger({ service: PROXY_SERVICE_NAME, level: config.LOG_LEVEL });
  const workers = config.PROXY_WORKERS ?? availableParallelism();
  if (workers === 1) {
    const proxy = await startNodeProxy(config, { logger });
    exitOnShutdownSignal(logger, () => proxy.close());
  } else if (cluster.isPrimary) {
    const primary = await runProxyPrimary(config, logger, workers);
    exitOnShutdownSignal(logger, () => primary.close());
  } else {
    await runProxyWorker(config, logger.child({ worker: cluster.worker!.id }));
  }
}

main().catch((error: unknown) => exitWithError(error, 'node-proxy failed to start'));
