import { z } from 'zod';
import { authOf } from '@cloud/auth';
import { errorResponse, jsonResponse } from '@cloud/http';
import { accessBody, accessSchema, createCredentialBody, credentialParams, credentialSchema, newCredentialSchema } from './access-schemas';
import { clientAuth, nodesRoute, noSuchNode } from './route';
import { noBody, nodeParams, nodeSchema } from './schemas';

const invalidInput = errorResponse('invalid input, naming the field (InvalidInput)');
const noSuchCredential = errorResponse('no such node of yours, or no such credential of it (NotFound)');
const jwtNode = errorResponse(
  "a jwt node, which takes its owner's client access tokens, not Basic credentials or URL tokens; or a node being deleted (Conflict)",
);

/** A node's access rules and its named credentials (Basic and URL tokens), for its owner. */
export const accessRoutes = [
  nodesRoute({
    method: 'get',
    path: '/users/me/nodes/:id/access',
    tags: ['access'],
    summary: "The node's access rules (also in the node record)",
    auth: clientAuth,
    request: { params: nodeParams },
    responses: { 200: jsonResponse('the rules; empty lists and a null rate when none are set', accessSchema), 404: noSuchNode },
    handler: async ({ params: { id }, res, deps }) => {
      res.json((await deps.nodes.get(authOf(res).sub, id)).access);
    },
  }),
  nodesRoute({
    method: 'put',
    path: '/users/me/nodes/:id/access',
    tags: ['access'],
    summary: "Set the node's access rules, whole (a field left out is emptied); every proxy applies them within a second",
    auth: clientAuth,
    request: { params: nodeParams, body: accessBody },
    responses: {
      200: jsonResponse('the node with its rules, normalised', nodeSchema),
      400: invalidInput,
      404: noSuchNode,
      409: errorResponse('the node is being deleted (Conflict)'),
    },
    handler: async ({ params: { id }, body, res, deps }) => {
      res.json(await deps.access.set(authOf(res).sub, id, body));
    },
  }),
  nodesRoute({
    method: 'get',
    path: '/users/me/nodes/:id/credentials',
    tags: ['access'],
    summary: "The node's credentials, Basic and URL tokens, oldest first (never a password or token, nor their hashes)",
    auth: clientAuth,
    request: { params: nodeParams },
    responses: { 200: jsonResponse('its credentials', z.array(credentialSchema)), 404: noSuchNode, 409: jwtNode },
    handler: async ({ params: { id }, res, deps }) => {
      res.json(await deps.credentials.list(authOf(res).sub, id));
    },
  }),
  nodesRoute({
    method: 'post',
    path: '/users/me/nodes/:id/credentials',
    tags: ['access'],
    summary:
      "Add a named credential: Basic (a user name and password; the default) or a URL token (`nt_…`, used as the first path segment of the node's addresses). The password or token is shown only in this answer, with the token's URLs",
    auth: clientAuth,
    request: { params: nodeParams, body: createCredentialBody },
    responses: {
      200: jsonResponse('the new credential, with its password, or its token and URLs', newCredentialSchema),
      400: invalidInput,
      403: errorResponse('the node has as many credentials as allowed (LimitExceeded)'),
      404: noSuchNode,
      409: errorResponse('a credential of that name exists, or a jwt node, or a node being deleted (Conflict)'),
    },
    handler: async ({ params: { id }, body, res, deps }) => {
      res.json(await deps.credentials.create(authOf(res).sub, id, body));
    },
  }),
  nodesRoute({
    method: 'post',
    path: '/users/me/nodes/:id/credentials/:credentialId/rotate',
    tags: ['access'],
    summary:
      'A new secret for a credential: the same id, name and kind (and user name for Basic), a new password or token shown only in this answer; the old one is refused within a second',
    auth: clientAuth,
    request: { params: credentialParams, body: noBody, bodyRequired: false },
    responses: {
      200: jsonResponse('the credential with its new password, or its new token and URLs', newCredentialSchema),
      400: invalidInput,
      404: noSuchCredential,
      409: jwtNode,
    },
    handler: async ({ params: { id, credentialId }, res, deps }) => {
      res.json(await deps.credentials.rotate(authOf(res).sub, id, credentialId));
    },
  }),
  nodesRoute({
    method: 'delete',
    path: '/users/me/nodes/:id/credentials/:credentialId',
    tags: ['access'],
    summary: 'Revoke one credential: it stops working within a second, the others go on',
    auth: clientAuth,
    request: { params: credentialParams },
    responses: {
      200: jsonResponse('the credentials left', z.array(credentialSchema)),
      404: noSuchCredential,
      409: errorResponse('the last credential of the node, of either kind (create another first), a jwt node, or a node being deleted (Conflict)'),
    },
    handler: async ({ params: { id, credentialId }, res, deps }) => {
      res.json(await deps.credentials.remove(authOf(res).sub, id, credentialId));
    },
  }),
];
