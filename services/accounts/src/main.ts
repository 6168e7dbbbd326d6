// Runs the accounts service alone, configured by the environment (`npm start -w services/accounts`).
import { runApiService } from '@cloud/service-shell';
import { loadAccountsConfig } from './config';
import { createAccountsService } from './service';
import { ACCOUNTS_SHUTDOWN } from './shutdown';

runApiService({
  name: 'accounts',
  async start() {
    const config = loadAccountsConfig();
    return { service: await createAccountsService(config), port: config.ACCOUNTS_PORT, host: config.ACCOUNTS_HOST };
  },
  shutdown: ACCOUNTS_SHUTDOWN,
});
