import { z } from 'zod';
import { errorResponse, jsonBody, jsonResponse, type OpenAPIRegistry } from '@cloud/http';
import { accessBody, accessSchema, createCredentialBody, credentialParams, credentialSchema, newCredentialSchema } from './access-schemas';
import { noBody, nodeParams, nodeSchema } from './schemas';

/** The access-rules and credentials routes in the nodes API's OpenAPI document. */
export function registerAccessPaths(registry: OpenAPIRegistry, common: { security: Array<Record<string, string[]>>; unauthorized: ReturnType<typeof errorResponse> }): void {
  const { security, unauthorized } = common;
  const notFound = errorResponse('no such node of yours (NotFound)');
  const invalid = errorResponse('invalid input, naming the field (InvalidInput)');
  const jwtNode = errorResponse('a jwt node, which takes its owner\'s client access tokens, not Basic credentials or URL tokens; or a node being deleted (Conflict)');
  registry.registerPath({
    method: 'get',
    path: '/users/me/nodes/{id}/access',
    tags: ['access'],
    summary: 'The node\'s access rules (also in the node record)',
    security,
    request: { params: nodeParams },
    responses: { 200: jsonResponse('the rules; empty lists and a null rate when none are set', accessSchema), 401: unauthorized, 404: notFound },
  });
  registry.registerPath({
    method: 'put',
    path: '/users/me/nodes/{id}/access',
    tags: ['access'],
    summary: 'Set the node\'s access rules, whole (a field left out is emptied); every proxy applies them within a second',
    security,
    request: { params: nodeParams, body: jsonBody(accessBody) },
    responses: {
      200: jsonResponse('the node with its rules, normalised', nodeSchema),
      400: invalid,
      401: unauthorized,
      404: notFound,
      409: errorResponse('the node is being deleted (Conflict)'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/users/me/nodes/{id}/credentials',
    tags: ['access'],
    summary: 'The node\'s credentials, Basic and URL tokens, oldest first (never a password or token, nor their hashes)',
    security,
    request: { params: nodeParams },
    responses: { 200: jsonResponse('its credentials', z.array(credentialSchema)), 401: unauthorized, 404: notFound, 409: jwtNode },
  });
  registry.registerPath({
    method: 'post',
    path: '/users/me/nodes/{id}/credentials',
    tags: ['access'],
    summary:
      'Add a named credential: Basic (a user name and password; the default) or a URL token (`nt_…`, used as the first path segment of the node\'s addresses). The password or token is shown only in this answer, with the token\'s URLs',
    security,
    request: { params: nodeParams, body: jsonBody(createCredentialBody) },
    responses: {
      200: jsonResponse('the new credential, with its password, or its token and URLs', newCredentialSchema),
      400: invalid,
      401: unauthorized,
      403: errorResponse('the node has as many credentials as allowed (LimitExceeded)'),
      404: notFound,
      409: errorResponse('a credential of that name exists, or a jwt node, or a node being deleted (Conflict)'),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/users/me/nodes/{id}/credentials/{credentialId}/rotate',
    tags: ['access'],
    summary:
      'A new secret for a credential: the same id, name and kind (and user name for Basic), a new password or token shown only in this answer; the old one is refused within a second',
    security,
    request: { params: credentialParams, body: { ...jsonBody(noBody), required: false } },
    responses: {
      200: jsonResponse('the credential with its new password, or its new token and URLs', newCredentialSchema),
      400: invalid,
      401: unauthorized,
      404: errorResponse('no such node of yours, or no such credential of it (NotFound)'),
      409: jwtNode,
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/users/me/nodes/{id}/credentials/{credentialId}',
    tags: ['access'],
    summary: 'Revoke one credential: it stops working within a second, the others go on',
    security,
    request: { params: credentialParams },
    responses: {
      200: jsonResponse('the credentials left', z.array(credentialSchema)),
      401: unauthorized,
      404: errorResponse('no such node of yours, or no such credential of it (NotFound)'),
      409: errorResponse('the last credential of the node, of either kind (create another first), a jwt node, or a node being deleted (Conflict)'),
    },
  });
}
