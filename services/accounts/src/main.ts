// Runs the accounts service alone, configured by the environment (`npm start -w services/accounts`).
import { exitOnShutdownSignal, serveHttp } from '@cloud/http';
import { loadAccountsConfig } from './config';
import { createAccountsService } from './service';
import { ACCOUNTS_SHUTDOWN } from './shutdown';

async function main() {
  const config = loadAccountsConfig();
  const service = await createAccountsService(config);
  const server = await serveHttp(service.app, { port: config.ACCOUNTS_PORT, host: config.ACCOUNTS_HOST, logger: service.logger, name: 'accounts API' });
  exitOnShutdownSignal(
    service.logger,
    async () => {
      await server.close(ACCOUNTS_SHUTDOWN.drainMs);
      await service.close();
    },
    ACCOUNTS_SHUTDOWN.exitBoundMs,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`accounts service failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
