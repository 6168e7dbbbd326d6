import { createServer, type RequestListener, type Server } from 'node:http';
import { Server as TlsServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@cloud/logging';
import { RequestDrain } from './request-drain';

export interface RunningServer {
  /** e.g. http://127.0.0.1:3001 */
  url: string;
  port: number;
  /**
   * Lets requests in flight finish (up to `graceMs`, default 5 s), then stops listening and closes
   * the connections left. A server of `serveHttp` answers requests arriving meanwhile with 503
   * (`RequestDrain`); one of `listenServer` stops accepting connections at once.
   */
  close(graceMs?: number): Promise<void>;
}

/** Listens on host:port (port 0 picks a free one) and resolves once listening. */
export async function serveHttp(handler: RequestListener, options: ServeOptions): Promise<RunningServer> {
  const drain = new RequestDrain();
  return listenServer(createServer(drain.wrap(handler)), options, drain);
}

export interface ServeOptions {
  port: number;
  host: string;
  logger: Logger;
  name: string;
}

/**
 * Makes a server (HTTP or HTTPS) listen on host:port, resolving once it does, with the keep-alive
 * and graceful close every service uses; with `drain` (the one its handler is wrapped in), the
 * close answers new requests 503 while those in flight finish.
 */
export async function listenServer(server: Server, options: ServeOptions, drain?: RequestDrain): Promise<RunningServer> {
  server.keepAliveTimeout = 65_000; // longer than common load balancers' idle timeouts
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `${server instanceof TlsServer ? 'https' : 'http'}://${host}:${port}`;
  options.logger.info(`${options.name} listening`, { url });
  return {
    url,
    port,
    async close(graceMs = 5_000) {
      const deadline = Date.now() + graceMs;
      if (drain) {
        // Idle keep-alive connections stay open while draining: a request a client sends on one
        // gets the 503 and `Connection: close`, where closing them now would reset a request
        // already on its way.
        const inFlight = drain.size;
        if (!(await drain.drain(graceMs)))
          options.logger.warn(`${options.name}: requests still unanswered after the grace period; closing their connections`, { graceMs, left: drain.size });
        else if (inFlight > 0) options.logger.info(`${options.name}: requests in flight answered`, { answered: inFlight });
      }
      await closeServer(server, Math.max(0, deadline - Date.now()));
    },
  };
}

/** Stops listening and resolves once every connection has ended; those still open after `graceMs` are closed. */
function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close((error) => {
      clearTimeout(force);
      if (error) reject(error);
      else resolve();
    });
    server.closeIdleConnections();
  });
}

/**
 * Ends a program whose start or command failed: the error's message on stderr, after `what: `
 * when given (`accounts service failed to start: …`), and exit code 1.
 */
export function exitWithError(error: unknown, what?: string): never {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${what === undefined ? '' : `${what}: `}${message}\n`);
  process.exit(1);
}

/**
 * Runs `shutdown` once on SIGINT or SIGTERM, then exits: 0 when it finished in time, 1 when it
 * failed or took longer than `timeoutMs` (the runtime contract allows 10 s).
 */
export function exitOnShutdownSignal(logger: Logger, shutdown: () => Promise<void>, timeoutMs = 9_000): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    const timer = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('shutdown failed', { error });
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
