import { Router, type Request, type RequestHandler } from 'express';
import { authOf } from '@cloud/auth';
import { InvalidInputError, parseInput } from '@cloud/http';
import type { ValidatorsService } from '../../domain/validators';
import { chainParams, createValidatorBody, networkParams, validatorParams } from './schemas';

export function stakingRouter(validators: ValidatorsService, requireClient: RequestHandler): Router {
  const router = Router();

  router.get('/staking/:chain/chains', requireClient, (req, res) => {
    res.json(validators.networks(parseInput(chainParams, req.params, 'params').chain));
  });

  router.get('/staking/:chain/:network/limits', requireClient, (req, res) => {
    res.json(validators.limits(parseInput(networkParams, req.params, 'params')));
  });

  router.post('/staking/:chain/:network/validators', requireClient, async (req, res) => {
    const network = parseInput(networkParams, req.params, 'params');
    refuseBody(req);
    res.json(await validators.create({ ...network, userId: authOf(res).sub }));
  });

  router.get('/staking/:chain/:network/validators', requireClient, async (req, res) => {
    res.json(await validators.list({ ...parseInput(networkParams, req.params, 'params'), userId: authOf(res).sub }));
  });

  router.get('/staking/:chain/:network/validators/:nodeId', requireClient, async (req, res) => {
    const { nodeId, ...network } = parseInput(validatorParams, req.params, 'params');
    res.json(await validators.get({ ...network, userId: authOf(res).sub }, nodeId));
  });

  router.delete('/staking/:chain/:network/validators/:nodeId', requireClient, async (req, res) => {
    const { nodeId, ...network } = parseInput(validatorParams, req.params, 'params');
    res.json(await validators.delete({ ...network, userId: authOf(res).sub }, nodeId));
  });

  return router;
}

/**
 * The creation takes no body. An empty JSON object is accepted (clients that always send one);
 * anything else is refused rather than ignored, since the caller expected it to mean something.
 */
function refuseBody(req: Request): void {
  if (req.body !== undefined) {
    parseInput(createValidatorBody, req.body, 'body');
    return;
  }
  // A body the JSON parser did not take (another content type).
  if (Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined) throw new InvalidInputError('body: this call takes no body');
}
