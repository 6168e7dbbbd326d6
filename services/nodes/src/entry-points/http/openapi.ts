import { z } from 'zod';
import { buildOpenApiDocument, clientTokenSecurity, errorResponse, jsonBody, jsonResponse, OpenAPIRegistry, type OpenApiDocument } from '@cloud/http';
import { registerAccessPaths } from './access-openapi';
import { registerUsagePaths } from './usage.openapi';
import { chainOptionSchema, createNodeBody, logsQuery, noBody, nodeParams, nodeSchema, updateNodeBody } from './schemas';

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
    summary:
      'The chains this installation runs nodes of, the software of each, and whether its nodes run on a private dev chain (dev) or keep only recent blocks (pruned); public: a token, if sent, must be valid',
    security: [{}, ...security],
    responses: { 200: jsonResponse('chain options', z.array(chainOptionSchema)), 401: errorResponse('an invalid, expired or revoked client access token was sent (Unauthorized)') },
  });
  registry.registerPath({
    method: 'post',
    path: '/users/me/nodes',
    tags: ['nodes'],
    summary: 'Create a node; it answers at once in state provisioning and comes up in the background (syncing while it catches up with its network, then running)',
    security,
    request: { body: jsonBody(createNodeBody) },
    responses: {
      200: jsonResponse('the new node, with its Basic credentials (shown once) unless jwt', nodeSchema),
      400: errorResponse('the body is not valid (InvalidInput): among others a name that is empty, longer than 64 characters or not printable; also txindex on a chain other than btc, bch or ltc, or on a pruned chain option'),
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
  const conflict = errorResponse('the operation does not apply to the node\'s state, which the message names, or the node is a validator\'s (Conflict)');
  const operations = [
    ['stop', 'Stop a node, keeping its data, credentials and address: stopping, then stopped', 'the node, stopping'],
    ['start', 'Start a stopped (or failed) node on its kept data: provisioning, then running', 'the node, provisioning'],
    ['restart', 'Restart a node: stopping, then provisioning, then running, on its kept data', 'the node, stopping'],
  ] as const;
  for (const [operation, summary, answer] of operations) {
    registry.registerPath({
      method: 'post',
      path: `/users/me/nodes/{id}/${operation}`,
      tags: ['nodes'],
      summary,
      security,
      request: { params: nodeParams, body: { ...jsonBody(noBody), required: false } },
      responses: { 200: jsonResponse(answer, nodeSchema), 400: invalid, 401: unauthorized, 404: notFound, 409: conflict },
    });
  }
  registry.registerPath({
    method: 'patch',
    path: '/users/me/nodes/{id}',
    tags: ['nodes'],
    summary:
      'Rename a node (`name`; null removes it) or resize it (`large`: large or standard), or both: a running node restarts with a new class on its kept data, a stopped one takes it when started; a name changes nothing else',
    security,
    request: { params: nodeParams, body: jsonBody(updateNodeBody) },
    responses: {
      200: jsonResponse('the node with its new name or class, stopping if it was restarted for a new class', nodeSchema),
      400: errorResponse('neither large nor name, or a name that is empty, longer than 64 characters or not printable (InvalidInput)'),
      401: unauthorized,
      404: notFound,
      409: errorResponse('the node is deleting, or is a validator\'s and large was given (Conflict); a validator\'s node can be renamed'),
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
  registerAccessPaths(registry, { security, unauthorized });
  registerUsagePaths(registry, security, unauthorized);
  return buildOpenApiDocument(registry, { title: 'Nodes API', version: '0.1.0' });
}
