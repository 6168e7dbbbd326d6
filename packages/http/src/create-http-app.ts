import { refuseDeepBodies } from './json-depth';
import express, { type Express, type RequestHandler, type Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import type { Logger } from '@cloud/logging';
import { accessLog } from './access-log';
import { apiCors } from './api-cors';
import { apiMetrics, type ApiMetricsOptions } from './api-metrics';
import { errorHandler, unknownRouteHandler } from './error-handler';
import { ServiceUnavailableError } from './errors';
import type { OpenApiDocument } from './openapi';
import { requestId } from './request-id';

/**
 * A dependency `/readyz` and `/healthz` check; `check` throws (or rejects) when it is not usable.
 * Losing a dependency makes the replica unready (`/readyz` 503: "send me no traffic") unless it
 * is `degradable`: the replica still serves without it (e.g. the broker, while the outbox keeps
 * messages), so it stays ready and `/healthz` names what is degraded (decision 020).
 */
export type ReadinessCheck = { name: string; check: () => Promise<void> | void; degradable?: boolean };

/** What every dependency check said: `ok`, or why not. */
export type DependencyReport = Record<string, { up: true } | { up: false; degradable: boolean; error: string }>;

// A check that hangs (a dead connection not noticed yet) counts as down rather than hold the probe.
const CHECK_TIMEOUT_MS = 2000;

/** Runs every check, side by side, each bounded in time. */
export async function probeDependencies(checks: readonly ReadinessCheck[]): Promise<DependencyReport> {
  const results = await Promise.all(
    checks.map(async ({ name, check, degradable = false }) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          Promise.resolve().then(check),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
          }),
        ]);
        return [name, { up: true }] as const;
      } catch (error) {
        return [name, { up: false, degradable, error: error instanceof Error ? error.message : String(error) }] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return Object.fromEntries(results);
}

export interface HttpAppOptions {
  logger: Logger;
  openapi: OpenApiDocument;
  /** Routers mounted at the root, after the middleware. */
  routers: Router[];
  /** Middleware that runs before the routes (e.g. call recording). */
  middleware?: RequestHandler[];
  readiness?: ReadinessCheck[];
  /** Largest JSON body accepted; larger ones get 413. */
  bodyLimit?: string;
  /** Express `trust proxy` setting, so `req.ip` is the client's behind an ingress. */
  trustProxy?: boolean | number | string;
  /** Web origins whose pages may call the API (CORS); none by default. */
  corsOrigins?: readonly string[];
  /** Serve `/metrics` (Prometheus) with the dependency gauge and these labels and registries. */
  metrics?: ApiMetricsOptions;
}

/**
 * The Express app every service starts from: request id and access log, CORS, a strict JSON body
 * parser, health and readiness probes (and `/metrics` when asked), the OpenAPI document with Swagger UI, the service's
 * routers, a JSON 404 for unknown routes, and the one error handler.
 */
export function createHttpApp(options: HttpAppOptions): Express {
  const { logger, openapi, routers, middleware = [], readiness = [], bodyLimit = '100kb', trustProxy = false, corsOrigins = [], metrics } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxy);
  app.set('etag', false);

  app.use(requestId);
  app.use(accessLog(logger));
  // Before every route, so a preflight is answered without credentials and errors carry the headers too.
  if (corsOrigins.length > 0) app.use(apiCors(corsOrigins));

  // Liveness: 200 while the process runs; the detail says which dependencies are down.
  app.get('/healthz', async (_req, res) => {
    const dependencies = await probeDependencies(readiness);
    const down = Object.values(dependencies).some((report) => !report.up);
    // Up or down only: the errors name internal hosts and ports, and this port may be public.
    res.json({
      status: down ? 'degraded' : 'ok',
      dependencies: Object.fromEntries(Object.entries(dependencies).map(([name, report]) => [name, report.up ? 'up' : 'down'])),
    });
  });
  app.get('/readyz', async (_req, res) => {
    const dependencies = await probeDependencies(readiness);
    const missing = Object.entries(dependencies).filter(([, report]) => !report.up && !report.degradable);
    if (missing.length > 0) {
      logger.warn('not ready', { dependencies: Object.fromEntries(missing) });
      throw new ServiceUnavailableError(`${missing.map(([name]) => name).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not available`, 'NotReady');
    }
    const degraded = Object.values(dependencies).some((report) => !report.up);
    res.json({ status: degraded ? 'degraded' : 'ok' });
  });
  if (metrics)
    app.get(
      '/metrics',
      apiMetrics(metrics, () => probeDependencies(readiness)),
    );
  app.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  app.use('/docs', swaggerUi.serve, swaggerUi.setup(openapi as swaggerUi.JsonObject));

  app.use(express.json({ limit: bodyLimit, strict: true, type: ['application/json', 'application/*+json'], verify: refuseDeepBodies }));
  for (const handler of middleware) app.use(handler);
  for (const router of routers) app.use(router);

  app.use(unknownRouteHandler);
  app.use(errorHandler(logger));
  return app;
}
