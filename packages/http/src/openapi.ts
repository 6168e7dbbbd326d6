import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

export { OpenAPIRegistry };
export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

export const errorBodySchema = z
  .object({
    code: z.string().meta({ example: 'InvalidInput' }),
    message: z.string().meta({ example: 'body.email: must be an e-mail address' }),
  })
  .meta({ id: 'Error' });

/** A response entry for `registerPath` whose body is the standard error. */
export function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: errorBodySchema } } };
}

/** A response entry for `registerPath` whose body is `schema`. */
export function jsonResponse(description: string, schema: z.ZodType) {
  return { description, content: { 'application/json': { schema } } };
}

/** A request body entry for `registerPath`. */
export function jsonBody(schema: z.ZodType) {
  return { content: { 'application/json': { schema } }, required: true };
}

/**
 * Registers the Bearer client-access-token scheme the cloud services (nodes, staking) take, and
 * returns the `security` of their paths and the 401 response that goes with it.
 */
export function clientTokenSecurity(registry: OpenAPIRegistry) {
  const clientToken = registry.registerComponent('securitySchemes', 'clientToken', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Client Access Token from POST {accounts_url}/auth/token (1 hour)',
  }).name;
  return {
    security: [{ [clientToken]: [] }],
    unauthorized: errorResponse('missing, invalid, expired or revoked client access token (Unauthorized)'),
  };
}

export type DocumentInfo = Parameters<OpenApiGeneratorV31['generateDocument']>[0]['info'];

export function buildOpenApiDocument(registry: OpenAPIRegistry, info: DocumentInfo): OpenApiDocument {
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({ openapi: '3.1.0', info });
}

/** Express path syntax to OpenAPI's: `/users/:id` → `/users/{id}`. */
export function toOpenApiPath(expressPath: string): string {
  return expressPath.replace(/:(\w+)/g, '{$1}');
}
