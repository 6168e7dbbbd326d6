// Runs the staking service alone, configured by the environment (`npm start -w services/staking`).
import { exitOnShutdownSignal, serveHttp } from '@cloud/http';
import { loadStakingConfig } from './config';
import { createStakingService } from './service';

async function main() {
  const config = loadStakingConfig();
  const service = await createStakingService(config);
  const server = await serveHttp(service.app, { port: config.STAKING_PORT, host: config.STAKING_HOST, logger: service.logger, name: 'staking API' });
  exitOnShutdownSignal(service.logger, async () => {
    await server.close();
    await service.close();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`staking service failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
