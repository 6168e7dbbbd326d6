import { Router, type RequestHandler } from 'express';
import { authOf } from '@cloud/auth';
import { attributeCallTo } from '@cloud/call-events';
import { parseInput } from '@cloud/http';
import type { PasswordResets } from '../../domain/password-resets';
import type { UsersService } from '../../domain/users';
import { toProfile } from '../../domain/profile';
import { describeEnded, toEndedAnswer } from '../../domain/standing-credentials';
import {
  changePasswordBody,
  deleteUserBody,
  passwordResetBody,
  passwordResetRequestBody,
  signUpBody,
  updateProfileBody,
  userReferenceParams,
  verifyParams,
} from './schemas';

export function usersRouter(users: UsersService, resets: PasswordResets, requireAccount: RequestHandler): Router {
  const router = Router();

  router.post('/users', async (req, res) => {
    const user = await users.signUp(parseInput(signUpBody, req.body, 'body'), req.ip);
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

  // 202 whether or not the address has an account (see PasswordResets.request).
  router.post('/users/password-reset', async (req, res) => {
    const { email } = parseInput(passwordResetRequestBody, req.body, 'body');
    const user = await users.findByIdOrEmail(email);
    if (user) attributeCallTo(res, user.id);
    await resets.request(email, req.ip, user);
    res.status(202).json({ message: 'if the address has an account, a password-reset e-mail is on its way' });
  });

  router.put('/users/:userId/password-reset/:token', async (req, res) => {
    const { userId, token } = parseInput(verifyParams, req.params, 'params');
    const { password } = parseInput(passwordResetBody, req.body, 'body');
    const user = await users.findByIdOrEmail(userId);
    if (user) attributeCallTo(res, user.id);
    const ended = await resets.reset(user, token, password, req.ip);
    res.json({ ended: toEndedAnswer(ended), message: `The password is changed; log in with it. ${describeEnded(ended)}` });
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
    const { accessToken, ended } = await users.changePassword(authOf(res).sub, oldPassword, newPassword, req.ip);
    res.json({ accessToken, ended: toEndedAnswer(ended), message: `The password is changed. ${describeEnded(ended)} This answer's accessToken is the session's new one.` });
  });

  router.delete('/users/me', requireAccount, async (req, res) => {
    const { password } = parseInput(deleteUserBody, req.body, 'body');
    await users.deleteUser(authOf(res).sub, password, req.ip);
    res.status(204).end();
  });

  return router;
}
