import type { RequestListener } from 'node:http';
import { createAccountsService, loadAccountsConfig } from '@cloud/accounts';
import { consoleSettings, createConsoleApp, loadConsoleConfig } from '@cloud/console';
import { createNodesService, loadNodesConfig } from '@cloud/nodes';
import { devCertificateFiles, loadProxyConfig, startNodeProxy, type NodeProxy } from '@cloud/node-proxy';
import { createStakingService, loadStakingConfig } from '@cloud/staking';
import { createStreamsService, loadStreamsConfig } from '@cloud/streams';
import { openBus, type Bus } from '@cloud/bus';
import { commonEnvironment, loadConfig } from '@cloud/config';
import { serveHttp } from '@cloud/http';
import { createLogger, type Logger } from '@cloud/logging';

export interface RunningPlatform {
  /** Base URL of each service, by name. */
  urls: Record<string, string>;
  /** The bus the services share: in-process unless AMQP_URL is set. */
  bus: Bus;
  /** The node-proxy: its port per chain, its scheme and the certificate clients should trust. */
  proxy: Pick<NodeProxy, 'ports' | 'contractPortMap' | 'scheme' | 'certificate' | 'adminUrl'>;
  /** Where local nodes run (LOCAL_NETWORKS): `dev` chains, or the images' `public` networks. */
  networks: 'dev' | 'public';
  stop(): Promise<void>;
}

/** What every API service gives the platform: its Express app, its logger, and how to release it. */
interface ApiService {
  app: Parameters<typeof serveHttp>[0];
  logger: Logger;
  close(): Promise<void>;
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
    /** Listens with one service's API, to be stopped with the others. */
    const serveApi = async (name: string, service: ApiService, listen: { port: number; host: string }) => {
      const server = await serveHttp(service.app, { ...listen, logger: service.logger, name: `${name} API` });
      started.push({ name, stopServing: () => server.close(), close: () => service.close() });
      urls[name] = server.url;
      return server.url;
    };

    // The console listens first, so that the accounts service's e-mail links can open its pages
    // and every API's CORS can admit its origin; it serves its page once the APIs are up.
    const consoleConfig = loadConsoleConfig(env);
    const consoleLogger = createLogger({ service: 'cloud-console', level: common.LOG_LEVEL });
    let consoleApp: RequestListener = (request, response) => unavailable(request, response, 'the platform is starting', true);
    const consoleServer = await serveHttp((request, response) => consoleApp(request, response), {
      port: consoleConfig.CONSOLE_PORT,
      host: consoleConfig.CONSOLE_HOST,
      logger: consoleLogger,
      name: 'console',
    });
    started.push({ name: 'console', stopServing: () => consoleServer.close(), close: () => Promise.resolve() });
    urls.console = consoleServer.url;
    // From here on, every service sees the console's address.
    env = withConsole(env, consoleServer.url);

    const accountsConfig = loadAccountsConfig(env);
    const accounts = await createAccountsService(accountsConfig, { bus });
    const accountsUrl = await serveApi('accounts', accounts, { port: accountsConfig.ACCOUNTS_PORT, host: accountsConfig.ACCOUNTS_HOST });

    // The other services read the accounts service's keys from its JWKS, wherever it listens.
    const withAccounts = { ACCOUNTS_URL: accountsUrl, ...env };
    // The node records print where the proxy listens: filled in once it does (the ports may be
    // ones the system picked), before any record is asked for.
    const proxyPorts: Record<number, number> = {};
    const nodesConfig = loadNodesConfig(withAccounts);
    await serveApi('nodes', await createNodesService(nodesConfig, { bus, proxyPorts }), { port: nodesConfig.NODES_PORT, host: nodesConfig.NODES_HOST });
    const stakingConfig = loadStakingConfig(withAccounts);
    await serveApi('staking', await createStakingService(stakingConfig, { bus, proxyPorts }), {
      port: stakingConfig.STAKING_PORT,
      host: stakingConfig.STAKING_HOST,
    });
    // Embedded, webhooks may go to this machine (the walk's local receiver) unless
    // STREAMS_ALLOW_TARGETS says otherwise; alone, the streams service allows public addresses only.
    const streamsConfig = loadStreamsConfig({ ...withAccounts, STREAMS_ALLOW_TARGETS: env.STREAMS_ALLOW_TARGETS || 'loopback' });
    await serveApi('streams', await createStreamsService(streamsConfig, { bus }), { port: streamsConfig.STREAMS_PORT, host: streamsConfig.STREAMS_HOST });

    const proxyConfig = loadProxyConfig(withAccounts);
    const proxy = await startNodeProxy(proxyConfig, { bus });
    Object.assign(proxyPorts, proxy.contractPortMap);
    started.push({ name: 'node-proxy', stopServing: () => proxy.close(), close: () => Promise.resolve() });

    // The page's API addresses are where the APIs listen; the CA to show in curl lines is the
    // proxy's own self-signed one, when it made one.
    const ownCertificate = proxyConfig.PROXY_TLS === 'on' && !proxyConfig.PROXY_TLS_CERT;
    const settings = consoleSettings(
      consoleConfig,
      { accounts: urls.accounts!, nodes: urls.nodes!, staking: urls.staking!, streams: urls.streams! },
      ownCertificate ? devCertificateFiles(proxyConfig.DATA_DIR).certFile : undefined,
    );
    try {
      consoleApp = createConsoleApp(settings);
    } catch (error) {
      // Tests of the APIs run from sources, without the console's build: the rest still serves.
      const reason = error instanceof Error ? error.message : String(error);
      consoleLogger.warn('the console is not served', { reason });
      consoleApp = (request, response) => unavailable(request, response, reason, false);
    }
    return { urls, bus, proxy, networks: nodesConfig.NODE_DRIVER === 'local' ? nodesConfig.LOCAL_NETWORKS : 'public', stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The services' environment with the console's address: the e-mails' links open its pages
 * (CONSOLE_URL, unless set), and the APIs admit its origin (added to CORS_ORIGINS).
 */
function withConsole(env: NodeJS.ProcessEnv, consoleUrl: string): NodeJS.ProcessEnv {
  const publicUrl = env.CONSOLE_URL || consoleUrl;
  const origins = new Set(
    [...(env.CORS_ORIGINS ?? '').split(','), new URL(consoleUrl).origin, new URL(publicUrl).origin].map((origin) => origin.trim()).filter(Boolean),
  );
  return { ...env, CONSOLE_URL: publicUrl, CORS_ORIGINS: [...origins].join(',') };
}

/**
 * The console's answer while it cannot serve: JSON for programs, and for a browser a page that
 * says so (and, while the platform starts, reloads itself until the console is there), rather
 * than a JSON error a person opening the address would have to read.
 */
function unavailable(request: Parameters<RequestListener>[0], response: Parameters<RequestListener>[1], reason: string, starting: boolean): void {
  const message = `the console is not available: ${reason}`;
  const headers = starting ? { 'retry-after': '2' } : {};
  if (!(request.headers.accept ?? '').includes('text/html')) {
    response.writeHead(503, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify({ code: 'ServiceUnavailable', message }));
    return;
  }
  const escaped = message.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
  const page = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cloud Nodes console</title>',
    ...(starting ? ['<meta http-equiv="refresh" content="2">'] : []),
    '</head><body><main>',
    starting
      ? '<h1>The platform is starting</h1><p>This page reloads itself every 2 seconds until the console is ready.</p>'
      : `<h1>The console is not available</h1><p>${escaped}</p>`,
    '</main></body></html>',
  ].join('');
  response.writeHead(503, { ...headers, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'" }).end(page);
}
