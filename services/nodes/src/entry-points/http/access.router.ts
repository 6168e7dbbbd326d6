import { Router, type RequestHandler } from 'express';
import { authOf } from '@cloud/auth';
import { parseInput } from '@cloud/http';
import type { NodeAccessRules } from '../../domain/node-access';
import type { NodeCredentials } from '../../domain/node-credentials';
import type { NodeRegistry } from '../../domain/node-registry';
import { accessBody, createCredentialBody, credentialParams } from './access-schemas';
import { noBody, nodeParams } from './schemas';

/** A node's access rules and its named credentials (Basic and URL tokens), for its owner. */
export function accessRouter(parts: { nodes: NodeRegistry; access: NodeAccessRules; credentials: NodeCredentials }, requireClient: RequestHandler): Router {
  const router = Router();

  router.get('/users/me/nodes/:id/access', requireClient, async (req, res) => {
    const { id } = parseInput(nodeParams, req.params, 'params');
    res.json((await parts.nodes.get(authOf(res).sub, id)).access);
  });

  router.put('/users/me/nodes/:id/access', requireClient, async (req, res) => {
    const { id } = parseInput(nodeParams, req.params, 'params');
    res.json(await parts.access.set(authOf(res).sub, id, parseInput(accessBody, req.body, 'body')));
  });

  router.get('/users/me/nodes/:id/credentials', requireClient, async (req, res) => {
    const { id } = parseInput(nodeParams, req.params, 'params');
    res.json(await parts.credentials.list(authOf(res).sub, id));
  });

  router.post('/users/me/nodes/:id/credentials', requireClient, async (req, res) => {
    const { id } = parseInput(nodeParams, req.params, 'params');
    res.json(await parts.credentials.create(authOf(res).sub, id, parseInput(createCredentialBody, req.body, 'body')));
  });

  router.post('/users/me/nodes/:id/credentials/:credentialId/rotate', requireClient, async (req, res) => {
    const { id, credentialId } = parseInput(credentialParams, req.params, 'params');
    parseInput(noBody, req.body ?? {}, 'body');
    res.json(await parts.credentials.rotate(authOf(res).sub, id, credentialId));
  });

  router.delete('/users/me/nodes/:id/credentials/:credentialId', requireClient, async (req, res) => {
    const { id, credentialId } = parseInput(credentialParams, req.params, 'params');
    res.json(await parts.credentials.remove(authOf(res).sub, id, credentialId));
  });

  return router;
}
