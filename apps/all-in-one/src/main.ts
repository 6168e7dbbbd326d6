// `npm start`: every service in one process on the embedded defaults (PGlite, dev outbox).
import { exitOnShutdownSignal, exitWithError } from '@cloud/http';
import { createLogger } from '@cloud/logging';
import { startPlatform } from './platform';

const logger = createLogger({ service: 'cloud-platform' });

startPlatform()
  .then((platform) => {
    logger.info('platform ready', { urls: platform.urls, dataDir: process.env.DATA_DIR ?? './.data', networks: platform.networks });
    logger.info(`the web console: ${platform.urls.console}`);
    if (platform.networks === 'dev')
      logger.info('nodes run on private dev chains (LOCAL_NETWORKS=dev), and say dev: true; LOCAL_NETWORKS=public runs the real networks');
    else logger.info('nodes run on their real networks where the real software is installed (LOCAL_NETWORKS=public); any other says dev: true');
    exitOnShutdownSignal(logger, () => platform.stop());
  })
  .catch((error: unknown) => exitWithError(error, 'the platform failed to start'));
