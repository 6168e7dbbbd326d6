// Runs the node-proxy alone, configured by the environment (`npm start -w services/node-proxy`).
import { exitOnShutdownSignal } from '@cloud/http';
import { createLogger } from '@cloud/logging';
import { loadProxyConfig } from './config';
import { PROXY_SERVICE_NAME, startNodeProxy } from './service';

async function main() {
  const config = loadProxyConfig();
  const logger = createLogger({ service: PROXY_SERVICE_NAME, level: config.LOG_LEVEL });
  const proxy = await startNodeProxy(config, { logger });
  exitOnShutdownSignal(logger, () => proxy.close());
}

main().catch((error: unknown) => {
  process.stderr.write(`node-proxy failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
