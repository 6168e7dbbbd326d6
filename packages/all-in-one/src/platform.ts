import { createAccountsService, loadAccountsConfig } from '@cloud/accounts';
import { createNodesService, loadNodesConfig } from '@cloud/nodes';
import { loadProxyConfig, startNodeProxy, type NodeProxy } from '@cloud/node-proxy';
import { createStakingService, loadStakingConfig } from '@cloud/staking';
import { openBus, type Bus } from '@cloud/bus';
import { commonEnvironment, loadConfig } from '@cloud/config';
import { serveHttp, type RunningServer } from '@cloud/http';
import { createLogger } from '@cloud/logging';

export interface RunningPlatform {
  /** Base URL of each service, by name. */
  urls: Record<string, string>;
  /** The bus the services share: in-process unless AMQP_URL is set. */
  bus: Bus;
  /** The node-proxy: its port per chain, its scheme and the certificate clients should trust. */
  proxy: Pick<NodeProxy, 'ports' | 'scheme' | 'certificate' | 'adminUrl'>;
  stop(): Promise<void>;
}

interface StartedService {
  name: string;
  /** Stops taking requests (first, for every service, at shutdown). */
  stopServing(): Promise<void>;
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
  const urls: Record<string, string> = {};
  const stop = async () => {
    // Stop taking requests everywhere, then stop the bus (consumers finish their batches, nothing
    // new arrives), then release each service's resources: unsent messages stay in its outbox.
    for (const service of started) await service.stopServing();
    await bus.close();
    for (const service of started.reverse()) await service.close();
  };
  try {
    const accountsConfig = loadAccountsConfig(env);
    const accounts = await createAccountsService(accountsConfig, { bus });
    const accountsServer = await serveHttp(accounts.app, {
      port: accountsConfig.ACCOUNTS_PORT,
      host: accountsConfig.ACCOUNTS_HOST,
      logger: accounts.logger,
      name: 'accounts API',
    });
    started.push(httpService('accounts', accountsServer, () => accounts.close()));
    urls.accounts = accountsServer.url;

    // The other services read the accounts service's keys from its JWKS, wherever it listens.
    const withAccounts = { ACCOUNTS_URL: accountsServer.url, ...env };
    const nodesConfig = loadNodesConfig(withAccounts);
    const nodes = await createNodesService(nodesConfig, { bus });
    const nodesServer = await serveHttp(nodes.app, { port: nodesConfig.NODES_PORT, host: nodesConfig.NODES_HOST, logger: nodes.logger, name: 'nodes API' });
    started.push(httpService('nodes', nodesServer, () => nodes.close()));
    urls.nodes = nodesServer.url;

    const stakingConfig = loadStakingConfig(withAccounts);
    const staking = await createStakingService(stakingConfig, { bus });
    const stakingServer = await serveHttp(staking.app, {
      port: stakingConfig.STAKING_PORT,
      host: stakingConfig.STAKING_HOST,
      logger: staking.logger,
      name: 'staking API',
    });
    started.push(httpService('staking', stakingServer, () => staking.close()));
    urls.staking = stakingServer.url;

    const proxy = await startNodeProxy(loadProxyConfig(withAccounts), { bus });
    started.push({ name: 'node-proxy', stopServing: () => proxy.close(), close: () => Promise.resolve() });
    return { urls, bus, proxy, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function httpService(name: string, server: RunningServer, close: () => Promise<void>): StartedService {
  return { name, stopServing: () => server.close(), close };
}
