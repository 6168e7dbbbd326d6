import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import type { ApiRoute, RouteAuth } from './api-routes';

export { OpenAPIRegistry };
export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

export const errorBodySchema = z
  .object({
    code: z.string().meta({ example: 'InvalidInput' }),
    message: z.string().meta({ example: 'body.email: must be an e-mail address' }),
  })
  .meta({ id: 'Error' });

/** An answer whose body is the standard error. */
export function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: errorBodySchema } } };
}

/** An answer whose body is `schema`. */
export function jsonResponse(description: string, schema: z.ZodType) {
  return { description, content: { 'application/json': { schema } } };
}

/** The Bearer client access token the cloud services (nodes, staking) take, checked by their `requireClient`. */
export function clientTokenAuth<Deps extends { requireClient: RequestHandler }>(): RouteAuth<Deps> {
  return {
    schemes: {
      clientToken: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'Client Access Token from POST {accounts_url}/auth/token (1 hour)',
      },
    },
    security: [{ clientToken: [] }],
    unauthorized: errorResponse('missing, invalid, expired or revoked client access token (Unauthorized)'),
    guard: (deps) => deps.requireClient,
  };
}

export type DocumentInfo = Parameters<OpenApiGeneratorV31['generateDocument']>[0]['info'];

/** The document of an API made of `routes`, in their order; the security schemes they name come first. */
export function buildApiDocument<Deps>(routes: readonly ApiRoute<Deps>[], info: DocumentInfo): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  const schemes = new Map(routes.flatMap((route) => Object.entries(route.auth?.schemes ?? {})));
  for (const [name, scheme] of schemes) registry.registerComponent('securitySchemes', name, scheme);
  for (const route of routes) registry.registerPath(toRouteConfig(route));
  return buildOpenApiDocument(registry, info);
}

function toRouteConfig<Deps>({ method, path, tags, summary, description, auth, request, responses }: ApiRoute<Deps>): RouteConfig {
  const { params, query, body, bodyRequired = true } = request ?? {};
  const input = {
    ...(params && { params }),
    ...(query && { query }),
    ...(body && { body: { content: { 'application/json': { schema: body } }, required: bodyRequired } }),
  };
  return {
    method,
    path: toOpenApiPath(path),
    tags,
    summary,
    ...(description !== undefined && { description }),
    ...(auth && { security: auth.security }),
    ...(request && { request: input }),
    responses: { ...(auth && { 401: auth.unauthorized }), ...responses },
  };
}

export function buildOpenApiDocument(registry: OpenAPIRegistry, info: DocumentInfo): OpenApiDocument {
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({ openapi: '3.1.0', info });
}

/** Express path syntax to OpenAPI's: `/users/:id` → `/users/{id}`. */
export function toOpenApiPath(expressPath: string): string {
  return expressPath.replace(/:(\w+)/g, '{$1}');
}
