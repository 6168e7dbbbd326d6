// Runs the nodes service alone, configured by the environment (`npm start -w services/nodes`).
import { exitOnShutdownSignal, serveHttp } from '@cloud/http';
import { loadNodesConfig } from './config';
import { createNodesService } from './service';

async function main() {
  const config = loadNodesConfig();
  const service = await createNodesService(config);
  const server = await serveHttp(service.app, { port: config.NODES_PORT, host: config.NODES_HOST, logger: service.logger, name: 'nodes API' });
  exitOnShutdownSignal(service.logger, async () => {
    await server.close();
    await service.close();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`nodes service failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
