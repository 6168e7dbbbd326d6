import type { RequestListener } from 'node:http';
import type { ServiceDatabaseSettings } from '@cloud/db';
import { exitOnShutdownSignal, exitWithError, serveHttp } from '@cloud/http';
import { createLogger, type Logger, type LogLevel } from '@cloud/logging';
import { migrateServiceDatabase, type ServiceSchema } from './service-database';

/** What a started API service gives its entry point. */
export interface ApiService {
  app: RequestListener;
  logger: Logger;
  /** Releases everything but the server (which is closed first). */
  close(): Promise<void>;
}

/** How a service stops on SIGINT/SIGTERM; the defaults are `RunningServer.close`'s and `exitOnShutdownSignal`'s. */
export interface ShutdownBounds {
  /** How long requests in flight get to finish. */
  drainMs?: number;
  /** The process exits (1) if the shutdown has not finished by then. */
  exitBoundMs?: number;
}

export interface ApiServiceMain {
  /** `accounts`: the server is the "accounts API", a failure is "accounts service failed to start". */
  name: string;
  /** Reads the configuration and starts the service: everything but listening. */
  start(): Promise<{ service: ApiService; port: number; host: string }>;
  shutdown?: ShutdownBounds;
}

/**
 * A service's `main.ts` (`npm start -w services/<name>`): starts it, listens, and on SIGINT/SIGTERM
 * closes the server (draining requests) and then the service. A start that fails exits 1 with one
 * line on stderr.
 */
export function runApiService(main: ApiServiceMain): void {
  const run = async () => {
    const { service, port, host } = await main.start();
    const server = await serveHttp(service.app, { port, host, logger: service.logger, name: `${main.name} API` });
    exitOnShutdownSignal(
      service.logger,
      async () => {
        await server.close(main.shutdown?.drainMs);
        await service.close();
      },
      main.shutdown?.exitBoundMs,
    );
  };
  run().catch((error: unknown) => exitWithError(error, `${main.name} service failed to start`));
}

export interface MigrateCommand {
  /** `accounts`: a failure is "accounts migrations failed". */
  name: string;
  /** The `service` field of its log lines, as the running service's. */
  logAs: string;
  loadConfig(): ServiceDatabaseSettings & { LOG_LEVEL: LogLevel };
  owned: ServiceSchema;
}

/**
 * A service's `migrate.ts` (`npm run migrate -w services/<name>`), for deployments that run
 * migrations as a job rather than at start: applies what is pending and exits.
 */
export function runMigrateCommand(command: MigrateCommand): void {
  const run = async () => {
    const config = command.loadConfig();
    await migrateServiceDatabase(config, command.owned, createLogger({ service: command.logAs, level: config.LOG_LEVEL }));
  };
  run().catch((error: unknown) => exitWithError(error, `${command.name} migrations failed`));
}
