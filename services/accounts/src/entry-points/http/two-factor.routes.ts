import { authOf } from '@cloud/auth';
import { errorResponse, jsonResponse } from '@cloud/http';
import { describeEnded, toEndedAnswer } from '../../domain/standing-credentials';
import { accountAuth, accountsRoute, invalidInput, wrongPassword } from './route';
import {
  confirmTwoFactorBody,
  disableTwoFactorBody,
  enrolTwoFactorBody,
  recoveryCodesSchema,
  twoFactorEnrolmentSchema,
  twoFactorStatusSchema,
} from './schemas';

/** The signed-in user's two-factor login: status, enrolment, confirmation, turning it off. */
export const twoFactorRoutes = [
  accountsRoute({
    method: 'get',
    path: '/users/me/two-factor',
    tags: ['two-factor'],
    summary: 'Whether two-factor login is on (or enrolled and waiting for its first code), and how many recovery codes are left',
    auth: accountAuth,
    responses: { 200: jsonResponse('the status', twoFactorStatusSchema) },
    handler: async ({ res, deps }) => {
      res.json(await deps.twoFactor.status(authOf(res).sub));
    },
  }),
  accountsRoute({
    method: 'post',
    path: '/users/me/two-factor',
    tags: ['two-factor'],
    summary: 'Enrol an authenticator (confirmed with the password): a new TOTP secret and its otpauth URI, pending until confirmed',
    auth: accountAuth,
    request: { body: enrolTwoFactorBody },
    responses: {
      200: jsonResponse('the secret, shown only here', twoFactorEnrolmentSchema),
      400: invalidInput,
      ...wrongPassword,
      409: errorResponse('two-factor login is on already (TwoFactorEnabled)'),
    },
    handler: async ({ body: { password }, req, res, deps }) => {
      res.json(await deps.twoFactor.enrol(authOf(res).sub, password, req.ip));
    },
  }),
  accountsRoute({
    method: 'post',
    path: '/users/me/two-factor/confirm',
    tags: ['two-factor'],
    summary:
      'Turn two-factor login on with a first code from the enrolled secret; returns the recovery codes, shown only here. Tokens issued before stop working and every client key is deleted; a fresh account token is returned',
    auth: accountAuth,
    request: { body: confirmTwoFactorBody },
    responses: {
      200: jsonResponse('the recovery codes, a new account access token, and what ended', recoveryCodesSchema),
      400: invalidInput,
      403: errorResponse('the code is wrong (InvalidTwoFactorCode)'),
      409: errorResponse('nothing enrolled (TwoFactorNotPending), or on already (TwoFactorEnabled)'),
    },
    handler: async ({ body: { code }, res, deps }) => {
      const { recoveryCodes, accessToken, ended } = await deps.twoFactor.confirm(authOf(res).sub, code);
      res.json({
        recoveryCodes,
        accessToken,
        ended: toEndedAnswer(ended),
        message: `Two-factor login is on. ${describeEnded(ended)} This answer's accessToken is the session's new one.`,
      });
    },
  }),
  accountsRoute({
    method: 'delete',
    path: '/users/me/two-factor',
    tags: ['two-factor'],
    summary: 'Turn two-factor login off (confirmed with the password and a code or a recovery code); the secret and recovery codes are deleted',
    auth: accountAuth,
    request: { body: disableTwoFactorBody },
    responses: {
      204: { description: 'off' },
      400: invalidInput,
      403: errorResponse('the password (Forbidden) or the code (InvalidTwoFactorCode) is wrong'),
      409: errorResponse('two-factor login is off (TwoFactorNotEnabled)'),
      429: errorResponse('too many wrong passwords or codes (TooManyRequests)'),
    },
    handler: async ({ body: { password, code }, req, res, deps }) => {
      await deps.twoFactor.disable(authOf(res).sub, password, code, req.ip);
      res.status(204).end();
    },
  }),
];
