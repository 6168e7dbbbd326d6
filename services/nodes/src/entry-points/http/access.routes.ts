import { z } from 'zod';
import { authOf } from '@cloud/auth';
import { errorResponse, jsonResponse } from '@cloud/http';
import { accessBody, accessSchema, createCredentialBody, credentialParams, credentialSchema, newCredentialSchema } from './access-schemas';
import { poolParams, poolSchema } from './pools.schemas';
import { clientAuth, nodesRoute, noSuchNode, noSuchPool } from './route';
import { noBody, nodeParams, nodeSchema } from './schemas';

const invalidInput = errorResponse('invalid input, naming the field (InvalidInput)');

/**
 * A node's or a pool's access rules and its named credentials (Basic and URL tokens), for its
 * owner: the same routes under `/users/me/nodes/{id}` and `/users/me/pools/{id}`.
 */
function accessRoutesOf(resource: 'nodes' | 'pools', params: typeof nodeParams | typeof poolParams, record: typeof nodeSchema | typeof poolSchema) {
  const noun = resource === 'nodes' ? 'node' : 'pool';
  const noSuchEndpoint = resource === 'nodes' ? noSuchNode : noSuchPool;
  const noSuchCredential = errorResponse(`no such ${noun} of yours, or no such credential of it (NotFound)`);
  const jwtNode = errorResponse(
    resource === 'nodes'
      ? "a jwt node, which takes its owner's client access tokens, not Basic credentials or URL tokens; or a node being deleted (Conflict)"
      : 'the pool is being deleted (Conflict)',
  );
  const credentialParamsOf = credentialParams.extend({ id: params.shape.id });
  return [
    nodesRoute({
      method: 'get',
      path: `/users/me/${resource}/:id/access`,
      tags: [resource === 'nodes' ? 'access' : 'pools'],
      summary: `The ${noun}'s access rules (also in the ${noun} record)`,
      auth: clientAuth,
      request: { params },
      responses: { 200: jsonResponse('the rules; empty lists and a null rate when none are set', accessSchema), 404: noSuchEndpoint },
      handler: async ({ params: { id }, res, deps }) => {
        res.json(await deps.access.get(authOf(res).sub, id));
      },
    }),
    nodesRoute({
      method: 'put',
      path: `/users/me/${resource}/:id/access`,
      tags: [resource === 'nodes' ? 'access' : 'pools'],
      summary: `Set the ${noun}'s access rules, whole (a field left out is emptied); every proxy applies them within a second`,
      auth: clientAuth,
      request: { params, body: accessBody },
      responses: {
        200: jsonResponse(`the ${noun} with its rules, normalised`, record),
        400: invalidInput,
        404: noSuchEndpoint,
        409: errorResponse(`the ${noun} is being deleted (Conflict)`),
      },
      handler: async ({ params: { id }, body, res, deps }) => {
        res.json(await deps.access.set(authOf(res).sub, id, body));
      },
    }),
    nodesRoute({
      method: 'get',
      path: `/users/me/${resource}/:id/credentials`,
      tags: [resource === 'nodes' ? 'access' : 'pools'],
      summary: `The ${noun}'s credentials, Basic and URL tokens, oldest first (never a password or token, nor their hashes)`,
      auth: clientAuth,
      request: { params },
      responses: { 200: jsonResponse('its credentials', z.array(credentialSchema)), 404: noSuchEndpoint, 409: jwtNode },
      handler: async ({ params: { id }, res, deps }) => {
        res.json(await deps.credentials.list(authOf(res).sub, id));
      },
    }),
    nodesRoute({
      method: 'post',
      path: `/users/me/${resource}/:id/credentials`,
      tags: [resource === 'nodes' ? 'access' : 'pools'],
      summary: `Add a named credential: Basic (a user name and password; the default) or a URL token (\`nt_…\`, used as the first path segment of the ${noun}'s addresses). The password or token is shown only in this answer, with the token's URLs`,
      auth: clientAuth,
      request: { params, body: createCredentialBody },
      responses: {
        200: jsonResponse('the new credential, with its password, or its token and URLs', newCredentialSchema),
        400: invalidInput,
        403: errorResponse(`the ${noun} has as many credentials as allowed (LimitExceeded)`),
        404: noSuchEndpoint,
        409: errorResponse(`a credential of that name exists, or a jwt node, or one being deleted (Conflict)`),
      },
      handler: async ({ params: { id }, body, res, deps }) => {
        res.json(await deps.credentials.create(authOf(res).sub, id, body));
      },
    }),
    nodesRoute({
      method: 'post',
      path: `/users/me/${resource}/:id/credentials/:credentialId/rotate`,
      tags: [resource === 'nodes' ? 'access' : 'pools'],
      summary:
        'A new secret for a credential: the same id, name and kind (and user name for Basic), a new password or token shown only in this answer; the old one is refused within a second',
      auth: clientAuth,
      request: { params: credentialParamsOf, body: noBody, bodyRequired: false },
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
      path: `/users/me/${resource}/:id/credentials/:credentialId`,
      tags: [resource === 'nodes' ? 'access' : 'pools'],
      summary: 'Revoke one credential: it stops working within a second, the others go on',
      auth: clientAuth,
      request: { params: credentialParamsOf },
      responses: {
        200: jsonResponse('the credentials left', z.array(credentialSchema)),
        404: noSuchCredential,
        409: errorResponse(`the last credential of the ${noun}, of either kind (create another first), a jwt node, or one being deleted (Conflict)`),
      },
      handler: async ({ params: { id, credentialId }, res, deps }) => {
        res.json(await deps.credentials.remove(authOf(res).sub, id, credentialId));
      },
    }),
  ];
}

export const accessRoutes = [...accessRoutesOf('nodes', nodeParams, nodeSchema), ...accessRoutesOf('pools', poolParams, poolSchema)];
