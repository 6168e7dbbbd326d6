import { Router, type RequestHandler } from 'express';
import { authOf } from '@cloud/auth';
import { parseInput } from '@cloud/http';
import { describeEnded, toEndedAnswer } from '../../domain/standing-credentials';
import type { TwoFactorService } from '../../domain/two-factor';
import { confirmTwoFactorBody, disableTwoFactorBody, enrolTwoFactorBody } from './schemas';

export function twoFactorRouter(twoFactor: TwoFactorService, requireAccount: RequestHandler): Router {
  const router = Router();

  router.get('/users/me/two-factor', requireAccount, async (_req, res) => {
    res.json(await twoFactor.status(authOf(res).sub));
  });

  router.post('/users/me/two-factor', requireAccount, async (req, res) => {
    const { password } = parseInput(enrolTwoFactorBody, req.body, 'body');
    res.json(await twoFactor.enrol(authOf(res).sub, password, req.ip));
  });

  router.post('/users/me/two-factor/confirm', requireAccount, async (req, res) => {
    const { code } = parseInput(confirmTwoFactorBody, req.body, 'body');
    const { recoveryCodes, accessToken, ended } = await twoFactor.confirm(authOf(res).sub, code);
    res.json({
      recoveryCodes,
      accessToken,
      ended: toEndedAnswer(ended),
      message: `Two-factor login is on. ${describeEnded(ended)} This answer's accessToken is the session's new one.`,
    });
  });

  router.delete('/users/me/two-factor', requireAccount, async (req, res) => {
    const { password, code } = parseInput(disableTwoFactorBody, req.body, 'body');
    await twoFactor.disable(authOf(res).sub, password, code, req.ip);
    res.status(204).end();
  });

  return router;
}
