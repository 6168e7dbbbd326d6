import { Router, type Express } from 'express';
import { z } from 'zod';
import { buildOpenApiDocument, createHttpApp, OpenAPIRegistry, type ReadinessCheck } from '@cloud/http';
import type { Logger } from '@cloud/logging';
import type { ProxyMetrics } from './metrics';

/** The operators' port: Prometheus `/metrics`, `/healthz`, `/readyz` (routes loaded, bus and revocations ready). */
export function createAdminApp(options: { logger: Logger; metrics: ProxyMetrics; readiness: ReadinessCheck[] }): Express {
  const registry = new OpenAPIRegistry();
  registry.registerPath({
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics of the node-proxy',
    responses: { 200: { description: 'Prometheus text format', content: { 'text/plain': { schema: z.string() } } } },
  });
  const router = Router();
  router.get('/metrics', async (_req, res) => {
    res.type(options.metrics.registry.contentType).send(await options.metrics.registry.metrics());
  });
  return createHttpApp({
    logger: options.logger,
    openapi: buildOpenApiDocument(registry, { title: 'node-proxy admin', version: '1' }),
    readiness: options.readiness,
    routers: [router],
  });
}
