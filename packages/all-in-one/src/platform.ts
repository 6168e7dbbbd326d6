import { createAccountsService, loadAccountsConfig } from '@cloud/accounts';
import { createNodesService, loadNodesConfig } from '@cloud/nodes';
import { openBus, type Bus } from '@cloud/bus';
import { commonEnvironment, loadConfig } from '@cloud/config';
import { serveHttp, type RunningServer } from '@cloud/http';
import { createLogger } from '@cloud/logging';

export interface RunningPlatform {
  /** Base URL of each service, by name. */
  urls: Record<string, string>;
  /** The bus the services share: in-process unless AMQP_URL is set. */
  bus: Bus;
  stop(): Promise<void>;
}

interface StartedService {
  name: string;
  server: RunningServer;
  close(): Promise<void>;
}

/**
 * Starts every service in this process, each configured from `env` as it would be alone (so the
 * same variables apply), sharing one message bus, and returns once all are listening. If one
 * fails to start, the ones already started are stopped again.
 */
export async function startPlatform(env: NodeJS.ProcessEnv = process.env): Promise<RunningPlatform> {
  const common = loadConfig(commonEnvironment, env);
  const bus = await openBus(common, 'cloud-platform', createLogger({ service: 'cloud-bus', level: common.LOG_LEVEL }));
  const started: StartedService[] = [];
  const stop = async () => {
    // Stop taking requests everywhere, then stop the bus (consumers finish their batches, nothing
    // new arrives), then release each service's resources: unsent messages stay in its outbox.
    for (const { server } of started) await server.close();
    await bus.close();
    for (const service of started.reverse()) await service.close();
  };
  try {
    const accountsConfig = loadAccountsConfig(env);
    const accounts = await createAccountsService(accountsConfig, { bus });
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

    // The nodes service reads the accounts service's keys from its JWKS, wherever it listens.
    const nodesConfig = loadNodesConfig({ ACCOUNTS_URL: started[0]!.server.url, ...env });
    const nodes = await createNodesService(nodesConfig, { bus });
    started.push({
      name: 'nodes',
      server: await serveHttp(nodes.app, { port: nodesConfig.NODES_PORT, host: nodesConfig.NODES_HOST, logger: nodes.logger, name: 'nodes API' }),
      close: () => nodes.close(),
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { urls: Object.fromEntries(started.map(({ name, server }) => [name, server.url])), bus, stop };
}
