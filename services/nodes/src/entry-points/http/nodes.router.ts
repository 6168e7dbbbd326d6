import { Router, type RequestHandler } from 'express';
import { authOf } from '@cloud/auth';
import { parseInput } from '@cloud/http';
import type { NodesService } from '../../domain/nodes';
import { createNodeBody, logsQuery, nodeParams } from './schemas';

export function nodesRouter(nodes: NodesService, requireClient: RequestHandler): Router {
  const router = Router();

  router.get('/chains', requireClient, async (_req, res) => {
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

  router.post('/users/me/nodes/:id/credentials', requireClient, async (req, res) => {
    const { id } = parseInput(nodeParams, req.params, 'params');
    res.json(await nodes.rotateCredentials(authOf(res).sub, id));
  });

  router.get('/users/me/nodes/:id/logs', requireClient, async (req, res) => {
    const { id } = parseInput(nodeParams, req.params, 'params');
    const { lines } = parseInput(logsQuery, req.query, 'query');
    res.json(await nodes.logs(authOf(res).sub, id, lines));
  });

  return router;
}
