import { z } from 'zod';
import { buildOpenApiDocument, clientTokenSecurity, errorResponse, jsonBody, jsonResponse, OpenAPIRegistry, type OpenApiDocument } from '@cloud/http';
import { chainOptionSchema, createNodeBody, logsQuery, nodeParams, nodeSchema } from './schemas';

/** The nodes API as served at GET /openapi.json (and /docs). */
export function nodesOpenApiDocument(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  const { security, unauthorized } = clientTokenSecurity(registry);
  const notFound = errorResponse('no such node of yours (NotFound)');
  const invalid = errorResponse('invalid input (InvalidInput)');

  registry.registerPath({
    method: 'get',
    path: '/chains',
    tags: ['chains'],
    summary: 'The chains this installation runs nodes of, and the software of each',
    security,
    responses: { 200: jsonResponse('chain options', z.array(chainOptionSchema)), 401: unauthorized },
  });
  registry.registerPath({
    method: 'post',
    path: '/users/me/nodes',
    tags: ['nodes'],
    summary: 'Create a node; it answers at once in state provisioning and comes up in the background',
    security,
    request: { body: jsonBody(createNodeBody) },
    responses: {
      200: jsonResponse('the new node, with its Basic credentials (shown once) unless jwt', nodeSchema),
      400: invalid,
      401: unauthorized,
      403: errorResponse('you have as many nodes as allowed (LimitExceeded)'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/users/me/nodes',
    tags: ['nodes'],
    summary: 'Your nodes, oldest first',
    security,
    responses: { 200: jsonResponse('your nodes', z.array(nodeSchema)), 401: unauthorized },
  });
  registry.registerPath({
    method: 'get',
    path: '/users/me/nodes/{id}',
    tags: ['nodes'],
    summary: 'One node',
    security,
    request: { params: nodeParams },
    responses: { 200: jsonResponse('the node', nodeSchema), 401: unauthorized, 404: notFound },
  });
  registry.registerPath({
    method: 'delete',
    path: '/users/me/nodes/{id}',
    tags: ['nodes'],
    summary: 'Delete a node: it answers with the node deleting; once gone the node is 404',
    security,
    request: { params: nodeParams },
    responses: { 200: jsonResponse('the node, deleting', nodeSchema), 401: unauthorized, 404: notFound },
  });
  registry.registerPath({
    method: 'post',
    path: '/users/me/nodes/{id}/credentials',
    tags: ['nodes'],
    summary: 'Replace the node\'s Basic credentials; the old ones stop working',
    security,
    request: { params: nodeParams },
    responses: {
      200: jsonResponse('the node with its new credentials (shown once)', nodeSchema),
      401: unauthorized,
      404: notFound,
      409: errorResponse('a jwt node, or a node being deleted (Conflict)'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/users/me/nodes/{id}/logs',
    tags: ['nodes'],
    summary: 'The last lines of the node software\'s log, oldest first',
    security,
    request: { params: nodeParams, query: logsQuery },
    responses: { 200: jsonResponse('log lines', z.array(z.string())), 400: invalid, 401: unauthorized, 404: notFound },
  });
  return buildOpenApiDocument(registry, { title: 'Nodes API', version: '0.1.0' });
}
