import { Router, type RequestHandler } from 'express';
import { authOf, optionalGuard } from '@cloud/auth';
import { parseInput } from '@cloud/http';
import type { NodeOperation, NodeOperations } from '../../domain/node-operations';
import type { NodeRegistry } from '../../domain/node-registry';
import { createNodeBody, logsQuery, noBody, nodeParams, updateNodeBody } from './schemas';

const OPERATIONS: readonly NodeOperation[] = ['stop', 'start', 'restart'];

export function nodesRouter(nodes: NodeRegistry, operations: NodeOperations, requireClient: RequestHandler): Router {
  const router = Router();

  // A public catalogue, as in the original service and its CLI; a token sent along is still checked.
  router.get('/chains', optionalGuard(requireClient), async (_req, res) => {
    res.json(await nodes.chains());
  });

  router.post('/users/me/nodes', requireClient, async (req, res) => {
    res.json(await nodes.create(authOf(res).sub, parseInput(createNodeBody, req.body, 'body')));
  });

  router.get('/users/me/nodes', requireClient, async (_req, res) => {
    res.json(await nodes.list(authOf(res).sub));
  });

  router.get('/users/me/nodes/:id', requireClient, async (req, res) => {
    const { id } = parseInput(nodeParams, req.params, 'params');
    res.json(await nodes.get(authOf(res).sub, id));
  });

  router.delete('/users/me/nodes/:id', requireClient, async (req, res) => {
    const { id } = parseInput(nodeParams, req.params, 'params');
    res.json(await nodes.delete(authOf(res).sub, id));
  });

  router.patch('/users/me/nodes/:id', requireClient, async (req, res) => {
    const { id } = parseInput(nodeParams, req.params, 'params');
    const { large, name } = parseInput(updateNodeBody, req.body, 'body');
    const userId = authOf(res).sub;
    // The resize first: what it refuses (a deleting node, a validator's: 409) is refused before the name changes.
    let node = large === undefined ? undefined : await operations.resize(userId, id, large);
    if (name !== undefined) node = await nodes.rename(userId, id, name);
    res.json(node);
  });

  for (const operation of OPERATIONS) {
    router.post(`/users/me/nodes/:id/${operation}`, requireClient, async (req, res) => {
      const { id } = parseInput(nodeParams, req.params, 'params');
      parseInput(noBody, req.body ?? {}, 'body');
      res.json(await operations.run(authOf(res).sub, id, operation));
    });
  }

  router.get('/users/me/nodes/:id/logs', requireClient, async (req, res) => {
    const { id } = parseInput(nodeParams, req.params, 'params');
    const { lines } = parseInput(logsQuery, req.query, 'query');
    res.json(await nodes.logs(authOf(res).sub, id, lines));
  });

  return router;
}
