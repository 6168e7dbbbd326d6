import express, { type Express, type RequestHandler, type Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import type { Logger } from '@cloud/logging';
import { accessLog } from './access-log';
import { errorHandler, unknownRouteHandler } from './error-handler';
import { ServiceUnavailableError } from './errors';
import type { OpenApiDocument } from './openapi';
import { requestId } from './request-id';

/** A check `GET /readyz` runs; it throws (or rejects) when the dependency is not usable. */
export type ReadinessCheck = { name: string; check: () => Promise<void> | void };

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
}

/**
 * The Express app every service starts from: request id and access log, a strict JSON body
 * parser, health and readiness probes, the OpenAPI document with Swagger UI, the service's
 * routers, a JSON 404 for unknown routes, and the one error handler.
 */
export function createHttpApp(options: HttpAppOptions): Express {
  const { logger, openapi, routers, middleware = [], readiness = [], bodyLimit = '100kb', trustProxy = false } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxy);
  app.set('etag', false);

  app.use(requestId);
  app.use(accessLog(logger));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    for (const { name, check } of readiness) {
      try {
        await check();
      } catch (error) {
        logger.warn('not ready', { dependency: name, error });
        throw new ServiceUnavailableError(`${name} is not available`, 'NotReady');
      }
    }
    res.json({ status: 'ok' });
  });
  app.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  app.use('/docs', swaggerUi.serve, swaggerUi.setup(openapi as swaggerUi.JsonObject));

  app.use(express.json({ limit: bodyLimit, strict: true, type: ['application/json', 'application/*+json'] }));
  for (const handler of middleware) app.use(handler);
  for (const router of routers) app.use(router);

  app.use(unknownRouteHandler);
  app.use(errorHandler(logger));
  return app;
}
