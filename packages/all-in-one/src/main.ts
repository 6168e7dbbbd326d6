// `npm start`: every service in one process on the embedded defaults (PGlite, dev outbox).
import { exitOnShutdownSignal } from '@cloud/http';
import { createLogger } from '@cloud/logging';
import { startPlatform } from './platform';

const logger = createLogger({ service: 'cloud-platform' });

startPlatform()
  .then((platform) => {
    logger.info('platform ready', { urls: platform.urls, dataDir: process.env.DATA_DIR ?? './.data' });
    exitOnShutdownSignal(logger, () => platform.stop());
  })
  .catch((error: unknown) => {
    process.stderr.write(`the platform failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
