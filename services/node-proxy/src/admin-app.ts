import { Router, type Express } from 'express';
import { z } from 'zod';
import { buildOpenApiDocument, createHttpApp, OpenAPIRegistry, type ReadinessCheck } from '@cloud/http';
import type { Logger } from '@cloud/logging';

/** What `/metrics` serves: the Prometheus text and its content type. */
export type MetricsSource = () => Promise<{ contentType: string; text: string }>;

/**
 * The operators' port: Prometheus `/metrics`, `/healthz`, `/readyz` (routes loaded, bus and
 * revocations ready). Served by the single proxy process, or by the primary of several workers.
 */
export function createAdminApp(options: { logger: Logger; metrics: MetricsSource; readiness: ReadinessCheck[] }): Express {
  const registry = new OpenAPIRegistry();
  registry.registerPath({
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics of the node-proxy',
    responses: { 200: { description: 'Prometheus text format', content: { 'text/plain': { schema: z.string() } } } },
  });
  const router = Router();
  router.get('/metrics', async (_req, res) => {
    const { contentType, text } = await options.metrics();
    res.type(contentType).send(text);
  });
  return createHttpApp({
    logger: options.logger,
    openapi: buildOpenApiDocument(registry, { title: 'node-proxy admin', version: '1' }),
    readiness: options.readiness,
    routers: [router],
  });
}
