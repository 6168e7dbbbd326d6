import { z } from 'zod';
import { authOf } from '@cloud/auth';
import { attributeCallTo } from '@cloud/call-events';
import { errorResponse, jsonResponse } from '@cloud/http';
import { toProfile } from '../../domain/profile';
import { describeEnded, toEndedAnswer } from '../../domain/standing-credentials';
import { accountAuth, accountsRoute, invalidInput, wrongPassword } from './route';
import {
  changePasswordBody,
  deleteUserBody,
  passwordChangedSchema,
  passwordResetBody,
  passwordResetDoneSchema,
  passwordResetRequestBody,
  profileSchema,
  signUpBody,
  updateProfileBody,
  userReferenceParams,
  verifyParams,
} from './schemas';

/** Sign-up, e-mail verification, password reset, and the signed-in user's profile, password and account. */
export const usersRoutes = [
  accountsRoute({
    method: 'post',
    path: '/users',
    tags: ['users'],
    summary: 'Sign up; sends the verification e-mail',
    request: { body: signUpBody },
    responses: {
      201: jsonResponse('the new user', profileSchema),
      400: invalidInput,
      409: errorResponse('the e-mail address is taken (Conflict)'),
      429: errorResponse('too many sign-ups from this client address (TooManyRequests)'),
    },
    handler: async ({ body, req, res, deps }) => {
      const user = await deps.users.signUp(body, req.ip);
      attributeCallTo(res, user.id);
      res.status(201).json(toProfile(user));
    },
  }),
  accountsRoute({
    method: 'put',
    path: '/users/:userId/token/:token',
    tags: ['users'],
    summary: 'Verify the e-mail address with the token from the e-mail',
    request: { params: verifyParams },
    responses: {
      200: jsonResponse('the verified user', profileSchema),
      404: errorResponse('no such user, or the token is wrong, used or expired'),
      409: errorResponse('already verified (UserVerified)'),
    },
    handler: async ({ params: { userId, token }, res, deps }) => {
      const user = await deps.users.findByIdOrEmail(userId);
      if (user) attributeCallTo(res, user.id);
      res.json(toProfile(await deps.users.verifyEmail(user, token)));
    },
  }),
  accountsRoute({
    method: 'post',
    path: '/users/:userId/verification',
    tags: ['users'],
    summary: 'Send a new verification e-mail (the old token stops working)',
    request: { params: userReferenceParams },
    responses: {
      202: jsonResponse('sent', z.object({ message: z.string() })),
      404: errorResponse('no such user'),
      409: errorResponse('already verified (UserVerified)'),
      429: errorResponse('one was sent moments ago (TooManyRequests)'),
    },
    handler: async ({ params: { userId }, res, deps }) => {
      const user = await deps.users.findByIdOrEmail(userId);
      if (user) attributeCallTo(res, user.id);
      await deps.users.resendVerification(user);
      res.status(202).json({ message: 'a new verification e-mail is on its way' });
    },
  }),
  accountsRoute({
    method: 'post',
    path: '/users/password-reset',
    tags: ['users'],
    summary: 'Ask for a password-reset e-mail; 202 whether or not the address has an account',
    request: { body: passwordResetRequestBody },
    responses: {
      202: jsonResponse('accepted (an e-mail is sent if the address has an account)', z.object({ message: z.string() })),
      400: invalidInput,
      429: errorResponse('too many requests for this e-mail address or from this client address (TooManyRequests)'),
    },
    // 202 whether or not the address has an account (see PasswordResets.request).
    handler: async ({ body: { email }, req, res, deps }) => {
      const user = await deps.users.findByIdOrEmail(email);
      if (user) attributeCallTo(res, user.id);
      await deps.passwordResets.request(email, req.ip, user);
      res.status(202).json({ message: 'if the address has an account, a password-reset e-mail is on its way' });
    },
  }),
  accountsRoute({
    method: 'put',
    path: '/users/:userId/password-reset/:token',
    tags: ['users'],
    summary: 'Set a new password with the token of a password-reset e-mail; every token issued before stops working and every client key is deleted',
    request: { params: verifyParams, body: passwordResetBody },
    responses: {
      200: jsonResponse('the password is changed (log in with it), and what ended', passwordResetDoneSchema),
      400: errorResponse('the token is wrong, used or expired (InvalidResetToken), or the password is weak (InvalidInput)'),
      429: errorResponse('too many requests from this client address (TooManyRequests)'),
    },
    handler: async ({ params: { userId, token }, body: { password }, req, res, deps }) => {
      const user = await deps.users.findByIdOrEmail(userId);
      if (user) attributeCallTo(res, user.id);
      const ended = await deps.passwordResets.reset(user, token, password, req.ip);
      res.json({ ended: toEndedAnswer(ended), message: `The password is changed; log in with it. ${describeEnded(ended)}` });
    },
  }),
  accountsRoute({
    method: 'get',
    path: '/users/me',
    tags: ['users'],
    summary: 'The profile',
    auth: accountAuth,
    responses: { 200: jsonResponse('the profile', profileSchema) },
    handler: async ({ res, deps }) => {
      res.json(toProfile(await deps.users.getUser(authOf(res).sub)));
    },
  }),
  accountsRoute({
    method: 'patch',
    path: '/users/me',
    tags: ['users'],
    summary: 'Change displayName and billingAddress (fields given are replaced)',
    auth: accountAuth,
    request: { body: updateProfileBody },
    responses: { 200: jsonResponse('the updated profile', profileSchema), 400: invalidInput },
    handler: async ({ body, res, deps }) => {
      res.json(toProfile(await deps.users.updateProfile(authOf(res).sub, body)));
    },
  }),
  accountsRoute({
    method: 'put',
    path: '/users/me/password',
    tags: ['users'],
    summary: 'Change the password; tokens issued before stop working and every client key is deleted; a fresh account token is returned',
    auth: accountAuth,
    request: { body: changePasswordBody },
    responses: {
      200: jsonResponse('a new account access token, and what ended', passwordChangedSchema),
      400: errorResponse('weak or unchanged new password (InvalidInput)'),
      403: errorResponse('the old password is wrong (Forbidden)'),
      429: errorResponse('too many wrong passwords (TooManyRequests)'),
    },
    handler: async ({ body: { oldPassword, newPassword }, req, res, deps }) => {
      const { accessToken, ended } = await deps.users.changePassword(authOf(res).sub, oldPassword, newPassword, req.ip);
      res.json({
        accessToken,
        ended: toEndedAnswer(ended),
        message: `The password is changed. ${describeEnded(ended)} This answer's accessToken is the session's new one.`,
      });
    },
  }),
  accountsRoute({
    method: 'delete',
    path: '/users/me',
    tags: ['users'],
    summary: 'Delete your account (confirmed with the password): its client keys and events go too, and every token of it stops working',
    auth: accountAuth,
    request: { body: deleteUserBody },
    responses: {
      204: { description: 'deleted' },
      400: invalidInput,
      ...wrongPassword,
    },
    handler: async ({ body: { password }, req, res, deps }) => {
      await deps.users.deleteUser(authOf(res).sub, password, req.ip);
      res.status(204).end();
    },
  }),
];
