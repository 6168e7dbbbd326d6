// Applies the nodes schema's migrations and exits (`npm run migrate -w services/nodes`), for
// deployments that run migrations as a job rather than at start.
import { runMigrateCommand } from '@cloud/service-shell';
import { NODES_SERVICE_NAME } from './app';
import { loadNodesConfig } from './config';
import { nodesMigrations, NODES_SCHEMA } from './migrations';

runMigrateCommand({ name: 'nodes', logAs: NODES_SERVICE_NAME, loadConfig: loadNodesConfig, owned: { schema: NODES_SCHEMA, migrations: nodesMigrations } });
