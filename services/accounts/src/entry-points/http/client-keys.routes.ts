import { z } from 'zod';
import { authOf } from '@cloud/auth';
import { errorResponse, jsonResponse } from '@cloud/http';
import { accountAuth, accountsRoute } from './route';
import { clientKeyParams, clientKeySchema, clientKeySummarySchema } from './schemas';

/** The signed-in user's client key pairs, which programs trade for client tokens. */
export const clientKeysRoutes = [
  accountsRoute({
    method: 'post',
    path: '/users/me/client-keys',
    tags: ['client keys'],
    summary: 'Make a client key pair; the secret is shown only here',
    auth: accountAuth,
    responses: { 200: jsonResponse('the key pair', clientKeySchema), 403: errorResponse('too many keys (LimitExceeded)') },
    handler: async ({ res, deps }) => {
      const { sub, ver } = authOf(res);
      res.json(await deps.clientKeys.create(sub, ver));
    },
  }),
  accountsRoute({
    method: 'get',
    path: '/users/me/client-keys',
    tags: ['client keys'],
    summary: 'List client keys (without secrets)',
    auth: accountAuth,
    responses: { 200: jsonResponse('the keys', z.array(clientKeySummarySchema)) },
    handler: async ({ res, deps }) => {
      const keys = await deps.clientKeys.list(authOf(res).sub);
      res.json(keys.map((key) => ({ id: key.id, createdAt: key.createdAt.toISOString() })));
    },
  }),
  accountsRoute({
    method: 'delete',
    path: '/users/me/client-keys/:id',
    tags: ['client keys'],
    summary: 'Delete a client key; tokens minted from it stop working',
    auth: accountAuth,
    request: { params: clientKeyParams },
    responses: { 204: { description: 'deleted' }, 404: errorResponse('no such key of yours') },
    handler: async ({ params: { id }, res, deps }) => {
      await deps.clientKeys.delete(authOf(res).sub, id);
      res.status(204).end();
    },
  }),
];
