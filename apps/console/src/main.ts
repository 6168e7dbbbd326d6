// Serves the console alone (its image, `npm start -w apps/console`), configured by the environment.
import { exitOnShutdownSignal, exitWithError, serveHttp } from '@cloud/http';
import { createLogger } from '@cloud/logging';
import { consoleSettings, loadConsoleConfig } from './config';
import { createConsoleApp } from './server';

async function main() {
  const config = loadConsoleConfig();
  const logger = createLogger({ service: 'cloud-console', level: config.LOG_LEVEL });
  const server = await serveHttp(createConsoleApp(consoleSettings(config)), { port: config.CONSOLE_PORT, host: config.CONSOLE_HOST, logger, name: 'console' });
  exitOnShutdownSignal(logger, () => server.close());
}

main().catch((error: unknown) => exitWithError(error, 'the console failed to start'));
