import type { RequestHandler } from 'express';
import type { SigningKey } from '@cloud/auth';
import { errorResponse, routeDeclarer, type RouteAuth } from '@cloud/http';
import type { CallEventLog } from '../../domain/call-events';
import type { ClientKeysService } from '../../domain/client-keys';
import type { PasswordResets } from '../../domain/password-resets';
import type { TwoFactorService } from '../../domain/two-factor';
import type { UsersService } from '../../domain/users';

/** What the accounts API's handlers work with, wired by createAccountsApp. */
export interface AccountsRouteDeps {
  users: UsersService;
  passwordResets: PasswordResets;
  twoFactor: TwoFactorService;
  clientKeys: ClientKeysService;
  events: CallEventLog;
  signingKey: SigningKey;
  requireAccount: RequestHandler;
}

/** Declares one route of the accounts API (see ApiRoute in @cloud/http). */
export const accountsRoute = routeDeclarer<AccountsRouteDeps>();

/** The Account Access Token of POST /auth, for the routes of the signed-in user (/users/me…). */
export const accountAuth: RouteAuth<AccountsRouteDeps> = {
  schemes: {
    accountToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Account Access Token from POST /auth (12 hours)' },
  },
  security: [{ accountToken: [] }],
  unauthorized: errorResponse('missing, invalid, expired or revoked account token'),
  guard: (deps) => deps.requireAccount,
};

export const invalidInput = errorResponse('invalid input (InvalidInput)');

/** The refusals of a route confirmed with the password (UsersService.confirmPassword). */
export const wrongPassword = {
  403: errorResponse('the password is wrong (Forbidden)'),
  429: errorResponse('too many wrong passwords (TooManyRequests)'),
};
