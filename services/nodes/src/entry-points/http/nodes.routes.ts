import { z } from 'zod';
import { authOf, optionalGuard } from '@cloud/auth';
import { errorResponse, jsonResponse, type RouteAuth } from '@cloud/http';
import type { NodeOperation } from '../../domain/node-operations';
import { clientAuth, nodesRoute, noSuchNode, type NodesRouteDeps } from './route';
import { chainOptionSchema, createNodeBody, logsQuery, noBody, nodeParams, nodeSchema, updateNodeBody } from './schemas';

// A public catalogue, as in the original service and its CLI; a token sent along is still checked.
const tokenIfSent: RouteAuth<NodesRouteDeps> = {
  ...clientAuth,
  security: [{}, ...clientAuth.security],
  unauthorized: errorResponse('an invalid, expired or revoked client access token was sent (Unauthorized)'),
  guard: (deps) => optionalGuard(deps.requireClient),
};

const invalidInput = errorResponse('invalid input (InvalidInput)');

const OPERATIONS: ReadonlyArray<readonly [NodeOperation, summary: string, answer: string]> = [
  ['stop', 'Stop a node, keeping its data, credentials and address: stopping, then stopped', 'the node, stopping'],
  ['start', 'Start a stopped (or failed) node on its kept data: provisioning, then running', 'the node, provisioning'],
  ['restart', 'Restart a node: stopping, then provisioning, then running, on its kept data', 'the node, stopping'],
];

/** The chains on offer, and the caller's nodes: create, list, read, delete, stop, start, restart, rename or resize, logs. */
export const nodesRoutes = [
  nodesRoute({
    method: 'get',
    path: '/chains',
    tags: ['chains'],
    summary:
      'The chains this installation runs nodes of, the software of each, and whether its nodes run on a private dev chain (dev) or keep only recent blocks (pruned); public: a token, if sent, must be valid',
    auth: tokenIfSent,
    responses: { 200: jsonResponse('chain options', z.array(chainOptionSchema)) },
    handler: async ({ res, deps }) => {
      res.json(await deps.nodes.chains());
    },
  }),
  nodesRoute({
    method: 'post',
    path: '/users/me/nodes',
    tags: ['nodes'],
    summary:
      'Create a node; it answers at once in state provisioning and comes up in the background (syncing while it catches up with its network, then running)',
    auth: clientAuth,
    request: { body: createNodeBody },
    responses: {
      200: jsonResponse('the new node, with its Basic credentials (shown once) unless jwt', nodeSchema),
      400: errorResponse(
        'the body is not valid (InvalidInput): among others a name that is empty, longer than 64 characters or not printable; also txindex on a chain other than btc, bch or ltc, or on a pruned chain option',
      ),
      403: errorResponse('you have as many nodes as allowed (LimitExceeded)'),
    },
    handler: async ({ body, res, deps }) => {
      res.json(await deps.nodes.create(authOf(res).sub, body));
    },
  }),
  nodesRoute({
    method: 'get',
    path: '/users/me/nodes',
    tags: ['nodes'],
    summary: 'Your nodes, oldest first',
    auth: clientAuth,
    responses: { 200: jsonResponse('your nodes', z.array(nodeSchema)) },
    handler: async ({ res, deps }) => {
      res.json(await deps.nodes.list(authOf(res).sub));
    },
  }),
  nodesRoute({
    method: 'get',
    path: '/users/me/nodes/:id',
    tags: ['nodes'],
    summary: 'One node',
    auth: clientAuth,
    request: { params: nodeParams },
    responses: { 200: jsonResponse('the node', nodeSchema), 404: noSuchNode },
    handler: async ({ params: { id }, res, deps }) => {
      res.json(await deps.nodes.get(authOf(res).sub, id));
    },
  }),
  nodesRoute({
    method: 'delete',
    path: '/users/me/nodes/:id',
    tags: ['nodes'],
    summary: 'Delete a node: it answers with the node deleting; once gone the node is 404',
    auth: clientAuth,
    request: { params: nodeParams },
    responses: { 200: jsonResponse('the node, deleting', nodeSchema), 404: noSuchNode },
    handler: async ({ params: { id }, res, deps }) => {
      res.json(await deps.nodes.delete(authOf(res).sub, id));
    },
  }),
  ...OPERATIONS.map(([operation, summary, answer]) =>
    nodesRoute({
      method: 'post',
      path: `/users/me/nodes/:id/${operation}`,
      tags: ['nodes'],
      summary,
      auth: clientAuth,
      request: { params: nodeParams, body: noBody, bodyRequired: false },
      responses: {
        200: jsonResponse(answer, nodeSchema),
        400: invalidInput,
        404: noSuchNode,
        409: errorResponse("the operation does not apply to the node's state, which the message names, or the node is a validator's (Conflict)"),
      },
      handler: async ({ params: { id }, res, deps }) => {
        res.json(await deps.operations.run(authOf(res).sub, id, operation));
      },
    }),
  ),
  nodesRoute({
    method: 'patch',
    path: '/users/me/nodes/:id',
    tags: ['nodes'],
    summary:
      'Rename a node (`name`; null removes it) or resize it (`large`: large or standard), or both: a running node restarts with a new class on its kept data, a stopped one takes it when started; a name changes nothing else',
    auth: clientAuth,
    request: { params: nodeParams, body: updateNodeBody },
    responses: {
      200: jsonResponse('the node with its new name or class, stopping if it was restarted for a new class', nodeSchema),
      400: errorResponse('neither large nor name, or a name that is empty, longer than 64 characters or not printable (InvalidInput)'),
      404: noSuchNode,
      409: errorResponse("the node is deleting, or is a validator's and large was given (Conflict); a validator's node can be renamed"),
    },
    handler: async ({ params: { id }, body: { large, name }, res, deps }) => {
      const userId = authOf(res).sub;
      // The resize first: what it refuses (a deleting node, a validator's: 409) is refused before the name changes.
      let node = large === undefined ? undefined : await deps.operations.resize(userId, id, large);
      if (name !== undefined) node = await deps.nodes.rename(userId, id, name);
      res.json(node);
    },
  }),
  nodesRoute({
    method: 'get',
    path: '/users/me/nodes/:id/logs',
    tags: ['nodes'],
    summary: "The last lines of the node software's log, oldest first",
    auth: clientAuth,
    request: { params: nodeParams, query: logsQuery },
    responses: { 200: jsonResponse('log lines', z.array(z.string())), 400: invalidInput, 404: noSuchNode },
    handler: async ({ params: { id }, query: { lines }, res, deps }) => {
      res.json(await deps.nodes.logs(authOf(res).sub, id, lines));
    },
  }),
];
