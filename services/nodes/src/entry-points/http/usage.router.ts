import { Router, type RequestHandler } from 'express';
import { authOf } from '@cloud/auth';
import { parseInput } from '@cloud/http';
import type { NodeCredentials } from '../../domain/node-credentials';
import type { UsageReports } from '../../domain/usage-report';
import { nodeParams } from './schemas';
import { usageQuery } from './usage.schemas';

export function usageRouter(credentials: NodeCredentials, reports: UsageReports, requireClient: RequestHandler): Router {
  const router = Router();

  router.get('/users/me/nodes/:id/usage', requireClient, async (req, res) => {
    const { id } = parseInput(nodeParams, req.params, 'params');
    const query = parseInput(usageQuery, req.query, 'query');
    // Another user's node, or none, is 404 before anything is read.
    const names = await credentials.names(authOf(res).sub, id);
    res.json({ nodeId: id, ...(await reports.nodeReport(id, names, query)) });
  });

  router.get('/users/me/usage', requireClient, async (req, res) => {
    res.json(await reports.userReport(authOf(res).sub, parseInput(usageQuery, req.query, 'query')));
  });

  return router;
}
