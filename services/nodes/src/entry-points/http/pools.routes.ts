import { z } from 'zod';
import { authOf } from '@cloud/auth';
import { errorResponse, jsonResponse } from '@cloud/http';
import { clientAuth, nodesRoute, noSuchPool } from './route';
import { createPoolBody, deletedPoolSchema, poolParams, poolSchema, updatePoolBody } from './pools.schemas';

const invalidMembers = errorResponse(
  "the body is not valid, naming the field (InvalidInput): among others a member that is not a node of yours, is being deleted, is a validator's, or is of another image or network than the others (or than the pool's), a node named twice, none or more than 16",
);

/** The caller's pools (issue 31): one endpoint over several of their nodes. Credentials, access rules and usage: access.routes.ts and usage.routes.ts. */
export const poolsRoutes = [
  nodesRoute({
    method: 'post',
    path: '/users/me/pools',
    tags: ['pools'],
    summary:
      "Create a pool of your nodes of one image and network: one endpoint with its own credentials, whose calls go to a member that runs, is not syncing and is within maxLagBlocks of the best member's head",
    auth: clientAuth,
    request: { body: createPoolBody },
    responses: {
      200: jsonResponse('the new pool, with its first Basic credential (shown once)', poolSchema),
      400: invalidMembers,
      403: errorResponse('you have as many pools as allowed (LimitExceeded)'),
    },
    handler: async ({ body, res, deps }) => {
      res.json(await deps.pools.create(authOf(res).sub, body));
    },
  }),
  nodesRoute({
    method: 'get',
    path: '/users/me/pools',
    tags: ['pools'],
    summary: 'Your pools, oldest first',
    auth: clientAuth,
    responses: { 200: jsonResponse('your pools', z.array(poolSchema)) },
    handler: async ({ res, deps }) => {
      res.json(await deps.pools.list(authOf(res).sub));
    },
  }),
  nodesRoute({
    method: 'get',
    path: '/users/me/pools/:id',
    tags: ['pools'],
    summary: 'One pool, with the state and sync of each member',
    auth: clientAuth,
    request: { params: poolParams },
    responses: { 200: jsonResponse('the pool', poolSchema), 400: errorResponse('an id that is not pool-<uuid> (InvalidInput)'), 404: noSuchPool },
    handler: async ({ params: { id }, res, deps }) => {
      res.json(await deps.pools.get(authOf(res).sub, id));
    },
  }),
  nodesRoute({
    method: 'patch',
    path: '/users/me/pools/:id',
    tags: ['pools'],
    summary: 'Rename a pool, change its lag bound, or replace its members (as a whole); every proxy applies it within a second',
    auth: clientAuth,
    request: { params: poolParams, body: updatePoolBody },
    responses: { 200: jsonResponse('the pool, changed', poolSchema), 400: invalidMembers, 404: noSuchPool },
    handler: async ({ params: { id }, body, res, deps }) => {
      res.json(await deps.pools.update(authOf(res).sub, id, body));
    },
  }),
  nodesRoute({
    method: 'delete',
    path: '/users/me/pools/:id',
    tags: ['pools'],
    summary: 'Delete a pool at once: its endpoint and credentials stop working within a second; its member nodes run on',
    auth: clientAuth,
    request: { params: poolParams },
    responses: {
      200: jsonResponse('the pool is deleted', deletedPoolSchema),
      400: errorResponse('an id that is not pool-<uuid> (InvalidInput)'),
      404: noSuchPool,
    },
    handler: async ({ params: { id }, res, deps }) => {
      res.json(await deps.pools.delete(authOf(res).sub, id));
    },
  }),
];
