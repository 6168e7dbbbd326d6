import { createAccountsService, loadAccountsConfig } from '@cloud/accounts';
import { serveHttp, type RunningServer } from '@cloud/http';

export interface RunningPlatform {
  /** Base URL of each service, by name. */
  urls: Record<string, string>;
  stop(): Promise<void>;
}

interface StartedService {
  name: string;
  server: RunningServer;
  close(): Promise<void>;
}

/**
 * Starts every service in this process, each configured from `env` as it would be alone (so the
 * same variables apply), and returns once all are listening. If one fails to start, the ones
 * already started are stopped again.
 */
export async function startPlatform(env: NodeJS.ProcessEnv = process.env): Promise<RunningPlatform> {
  const started: StartedService[] = [];
  const stop = async () => {
    // Stop taking requests everywhere first, then release each service's resources.
    for (const { server } of started) await server.close();
    for (const service of started.reverse()) await service.close();
  };
  try {
    const accountsConfig = loadAccountsConfig(env);
    const accounts = await createAccountsService(accountsConfig);
    started.push({
      name: 'accounts',
      server: await serveHttp(accounts.app, {
        port: accountsConfig.ACCOUNTS_PORT,
        host: accountsConfig.ACCOUNTS_HOST,
        logger: accounts.logger,
        name: 'accounts API',
      }),
      close: () => accounts.close(),
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { urls: Object.fromEntries(started.map(({ name, server }) => [name, server.url])), stop };
}
