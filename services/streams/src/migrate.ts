// Applies the streams schema's migrations and exits (`npm run migrate -w services/streams`), for
// deployments that run migrations as a job rather than at start.
import { runMigrateCommand } from '@cloud/service-shell';
import { STREAMS_SERVICE_NAME } from './app';
import { loadStreamsConfig } from './config';
import { streamsMigrations, STREAMS_SCHEMA } from './migrations';

runMigrateCommand({
  name: 'streams',
  logAs: STREAMS_SERVICE_NAME,
  loadConfig: loadStreamsConfig,
  owned: { schema: STREAMS_SCHEMA, migrations: streamsMigrations },
});
