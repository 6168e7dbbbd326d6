import { authOf } from '@cloud/auth';
import { errorResponse, jsonResponse } from '@cloud/http';
import { poolParams } from './pools.schemas';
import { clientAuth, nodesRoute, noSuchNode, noSuchPool } from './route';
import { nodeParams } from './schemas';
import { nodeUsageSchema, usageQuery, userUsageSchema } from './usage.schemas';

const invalidRange = errorResponse(
  'invalid input, naming the field: a bad date, from not before to, an unknown granularity, or more than 1440 buckets (InvalidInput)',
);

/** Calls to the caller's nodes through the node-proxy, per node and across them. */
export const usageRoutes = [
  nodesRoute({
    method: 'get',
    path: '/users/me/nodes/:id/usage',
    tags: ['usage'],
    summary:
      "Calls to the node through the node-proxy, by outcome and method, those answered from the proxy's cache, and bytes, in minute (kept a day) or hour (kept 90 days) buckets",
    auth: clientAuth,
    request: { params: nodeParams, query: usageQuery },
    responses: { 200: jsonResponse("the node's usage", nodeUsageSchema), 400: invalidRange, 404: noSuchNode },
    handler: async ({ params: { id }, query, res, deps }) => {
      // Another user's node, or none, is 404 before anything is read.
      const names = await deps.credentials.names(authOf(res).sub, id);
      res.json({ nodeId: id, ...(await deps.usageReports.endpointReport(id, names, query)) });
    },
  }),
  nodesRoute({
    method: 'get',
    path: '/users/me/pools/:id/usage',
    tags: ['usage'],
    summary: "Calls through the pool's endpoint, as a node's usage: booked under the pool's id whichever member served them",
    auth: clientAuth,
    request: { params: poolParams, query: usageQuery },
    responses: { 200: jsonResponse("the pool's usage (`nodeId` is the pool's id)", nodeUsageSchema), 400: invalidRange, 404: noSuchPool },
    handler: async ({ params: { id }, query, res, deps }) => {
      // Another user's pool, or none, is 404 before anything is read.
      const names = await deps.credentials.names(authOf(res).sub, id);
      res.json({ nodeId: id, ...(await deps.usageReports.endpointReport(id, names, query)) });
    },
  }),
  nodesRoute({
    method: 'get',
    path: '/users/me/usage',
    tags: ['usage'],
    summary: 'Usage across all your nodes and pools, with totals per node or pool',
    auth: clientAuth,
    request: { query: usageQuery },
    responses: { 200: jsonResponse('your usage', userUsageSchema), 400: invalidRange },
    handler: async ({ query, res, deps }) => {
      res.json(await deps.usageReports.userReport(authOf(res).sub, query));
    },
  }),
];
