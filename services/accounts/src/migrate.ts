// Applies the accounts schema's migrations and exits (`npm run migrate -w services/accounts`),
// for deployments that run migrations as a job rather than at start.
import { runMigrateCommand } from '@cloud/service-shell';
import { ACCOUNTS_SERVICE_NAME } from './app';
import { loadAccountsConfig } from './config';
import { accountsMigrations, ACCOUNTS_SCHEMA } from './migrations';

runMigrateCommand({
  name: 'accounts',
  logAs: ACCOUNTS_SERVICE_NAME,
  loadConfig: loadAccountsConfig,
  owned: { schema: ACCOUNTS_SCHEMA, migrations: accountsMigrations },
});
