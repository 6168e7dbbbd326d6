import { Router, type RequestHandler } from 'express';
import { authOf } from '@cloud/auth';
import { parseInput } from '@cloud/http';
import type { ClientKeysService } from '../../domain/client-keys';
import { clientKeyParams } from './schemas';

export function clientKeysRouter(clientKeys: ClientKeysService, requireAccount: RequestHandler): Router {
  const router = Router();

  router.post('/users/me/client-keys', requireAccount, async (_req, res) => {
    const { sub, ver } = authOf(res);
    res.json(await clientKeys.create(sub, ver));
  });

  router.get('/users/me/client-keys', requireAccount, async (_req, res) => {
    const keys = await clientKeys.list(authOf(res).sub);
    res.json(keys.map((key) => ({ id: key.id, createdAt: key.createdAt.toISOString() })));
  });

  router.delete('/users/me/client-keys/:id', requireAccount, async (req, res) => {
    const { id } = parseInput(clientKeyParams, req.params, 'params');
    await clientKeys.delete(authOf(res).sub, id);
    res.status(204).end();
  });

  return router;
}
