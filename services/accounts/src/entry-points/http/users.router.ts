import { Router, type RequestHandler } from 'express';
import { authOf } from '@cloud/auth';
import { attributeCallTo } from '@cloud/call-events';
import { parseInput } from '@cloud/http';
import type { UsersService } from '../../domain/users';
import { toProfile } from '../../domain/profile';
import { changePasswordBody, deleteUserBody, signUpBody, updateProfileBody, userReferenceParams, verifyParams } from './schemas';

export function usersRouter(users: UsersService, requireAccount: RequestHandler): Router {
  const router = Router();

  router.post('/users', async (req, res) => {
    const user = await users.signUp(parseInput(signUpBody, req.body, 'body'));
    attributeCallTo(res, user.id);
    res.status(201).json(toProfile(user));
  });

  router.put('/users/:userId/token/:token', async (req, res) => {
    const { userId, token } = parseInput(verifyParams, req.params, 'params');
    const user = await users.findByIdOrEmail(userId);
    if (user) attributeCallTo(res, user.id);
    res.json(toProfile(await users.verifyEmail(user, token)));
  });

  router.post('/users/:userId/verification', async (req, res) => {
    const { userId } = parseInput(userReferenceParams, req.params, 'params');
    const user = await users.findByIdOrEmail(userId);
    if (user) attributeCallTo(res, user.id);
    await users.resendVerification(user);
    res.status(202).json({ message: 'a new verification e-mail is on its way' });
  });

  router.get('/users/me', requireAccount, async (_req, res) => {
    res.json(toProfile(await users.getUser(authOf(res).sub)));
  });

  router.patch('/users/me', requireAccount, async (req, res) => {
    const update = parseInput(updateProfileBody, req.body, 'body');
    res.json(toProfile(await users.updateProfile(authOf(res).sub, update)));
  });

  router.put('/users/me/password', requireAccount, async (req, res) => {
    const { oldPassword, newPassword } = parseInput(changePasswordBody, req.body, 'body');
    const accessToken = await users.changePassword(authOf(res).sub, oldPassword, newPassword, req.ip);
    res.json({ accessToken });
  });

  router.delete('/users/me', requireAccount, async (req, res) => {
    const { password } = parseInput(deleteUserBody, req.body, 'body');
    await users.deleteUser(authOf(res).sub, password, req.ip);
    res.status(204).end();
  });

  return router;
}
