import { z } from 'zod';
import { buildOpenApiDocument, errorResponse, jsonBody, jsonResponse, OpenAPIRegistry, type OpenApiDocument } from '@cloud/http';
import {
  accessTokenSchema,
  changePasswordBody,
  clientKeyParams,
  clientKeySchema,
  clientKeySummarySchema,
  clientTokensSchema,
  confirmTwoFactorBody,
  deleteUserBody,
  disableTwoFactorBody,
  enrolTwoFactorBody,
  passwordChangedSchema,
  passwordResetBody,
  passwordResetDoneSchema,
  passwordResetRequestBody,
  eventSchema,
  eventsQuery,
  loginBody,
  profileSchema,
  recoveryCodesSchema,
  signUpBody,
  tokenRequestBody,
  twoFactorEnrolmentSchema,
  twoFactorStatusSchema,
  updateProfileBody,
  userReferenceParams,
  verifyParams,
} from './schemas';

/** The accounts API as served at GET /openapi.json (and /docs). */
export function accountsOpenApiDocument(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  const accountToken = registry.registerComponent('securitySchemes', 'accountToken', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Account Access Token from POST /auth (12 hours)',
  }).name;
  const basic = registry.registerComponent('securitySchemes', 'basic', {
    type: 'http',
    scheme: 'basic',
    description: 'user id or e-mail address, and password',
  }).name;
  const asAccount = [{ [accountToken]: [] }];
  const unauthorized = errorResponse('missing, invalid, expired or revoked account token');
  const invalid = errorResponse('invalid input (InvalidInput)');

  registry.registerPath({
    method: 'post',
    path: '/users',
    tags: ['users'],
    summary: 'Sign up; sends the verification e-mail',
    request: { body: jsonBody(signUpBody) },
    responses: {
      201: jsonResponse('the new user', profileSchema),
      400: invalid,
      409: errorResponse('the e-mail address is taken (Conflict)'),
      429: errorResponse('too many sign-ups from this client address (TooManyRequests)'),
    },
  });
  registry.registerPath({
    method: 'put',
    path: '/users/{userId}/token/{token}',
    tags: ['users'],
    summary: 'Verify the e-mail address with the token from the e-mail',
    request: { params: verifyParams },
    responses: {
      200: jsonResponse('the verified user', profileSchema),
      404: errorResponse('no such user, or the token is wrong, used or expired'),
      409: errorResponse('already verified (UserVerified)'),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/users/{userId}/verification',
    tags: ['users'],
    summary: 'Send a new verification e-mail (the old token stops working)',
    request: { params: userReferenceParams },
    responses: {
      202: jsonResponse('sent', z.object({ message: z.string() })),
      404: errorResponse('no such user'),
      409: errorResponse('already verified (UserVerified)'),
      429: errorResponse('one was sent moments ago (TooManyRequests)'),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/users/password-reset',
    tags: ['users'],
    summary: 'Ask for a password-reset e-mail; 202 whether or not the address has an account',
    request: { body: jsonBody(passwordResetRequestBody) },
    responses: {
      202: jsonResponse('accepted (an e-mail is sent if the address has an account)', z.object({ message: z.string() })),
      400: invalid,
      429: errorResponse('too many requests for this e-mail address or from this client address (TooManyRequests)'),
    },
  });
  registry.registerPath({
    method: 'put',
    path: '/users/{userId}/password-reset/{token}',
    tags: ['users'],
    summary: 'Set a new password with the token of a password-reset e-mail; every token issued before stops working and every client key is deleted',
    request: { params: verifyParams, body: jsonBody(passwordResetBody) },
    responses: {
      200: jsonResponse('the password is changed (log in with it), and what ended', passwordResetDoneSchema),
      400: errorResponse('the token is wrong, used or expired (InvalidResetToken), or the password is weak (InvalidInput)'),
      429: errorResponse('too many requests from this client address (TooManyRequests)'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/users/me',
    tags: ['users'],
    summary: 'The profile',
    security: asAccount,
    responses: { 200: jsonResponse('the profile', profileSchema), 401: unauthorized },
  });
  registry.registerPath({
    method: 'patch',
    path: '/users/me',
    tags: ['users'],
    summary: 'Change displayName and billingAddress (fields given are replaced)',
    security: asAccount,
    request: { body: jsonBody(updateProfileBody) },
    responses: { 200: jsonResponse('the updated profile', profileSchema), 400: invalid, 401: unauthorized },
  });
  registry.registerPath({
    method: 'put',
    path: '/users/me/password',
    tags: ['users'],
    summary: 'Change the password; tokens issued before stop working and every client key is deleted; a fresh account token is returned',
    security: asAccount,
    request: { body: jsonBody(changePasswordBody) },
    responses: {
      200: jsonResponse('a new account access token, and what ended', passwordChangedSchema),
      400: errorResponse('weak or unchanged new password (InvalidInput)'),
      401: unauthorized,
      403: errorResponse('the old password is wrong (Forbidden)'),
      429: errorResponse('too many wrong passwords (TooManyRequests)'),
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/users/me',
    tags: ['users'],
    summary: 'Delete your account (confirmed with the password): its client keys and events go too, and every token of it stops working',
    security: asAccount,
    request: { body: jsonBody(deleteUserBody) },
    responses: {
      204: { description: 'deleted' },
      400: invalid,
      401: unauthorized,
      403: errorResponse('the password is wrong (Forbidden)'),
      429: errorResponse('too many wrong passwords (TooManyRequests)'),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/auth',
    tags: ['auth'],
    summary: 'Log in with HTTP Basic credentials; returns an Account Access Token (12 hours)',
    description:
      'With two-factor login on, the body carries `{"code": "123456"}`: the code of the authenticator app (the current 30-second ' +
      'step or the one before or after, each step once) or an unused recovery code. Without it the answer is 401 ' +
      '`TwoFactorRequired`, so a client knows to ask for it; a wrong code is 401 `InvalidTwoFactorCode`. Both count as failed logins.',
    security: [{ [basic]: [] }],
    request: { body: { ...jsonBody(loginBody), required: false } },
    responses: {
      200: jsonResponse('the account access token', accessTokenSchema),
      400: invalid,
      401: errorResponse('wrong user id, e-mail or password (Unauthorized); code missing (TwoFactorRequired) or wrong (InvalidTwoFactorCode)'),
      403: errorResponse('e-mail not verified yet (UserNotVerified)'),
      429: errorResponse('too many failed logins from this address (TooManyRequests); see the throttle table in the README'),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/auth/token',
    tags: ['auth'],
    summary: 'Trade client credentials for client tokens, or a refresh token for a new access token',
    request: { body: jsonBody(tokenRequestBody) },
    responses: {
      200: jsonResponse('client access token (1 hour) and refresh token (1 year)', clientTokensSchema),
      400: errorResponse('unknown grantType or missing field (InvalidInput)'),
      401: errorResponse('wrong client credentials, or an invalid, expired or revoked refresh token'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/.well-known/jwks.json',
    tags: ['auth'],
    summary: 'Public keys that verify tokens (JWK Set)',
    responses: { 200: jsonResponse('the key set', z.object({ keys: z.array(z.record(z.string(), z.string())) })) },
  });
  registry.registerPath({
    method: 'get',
    path: '/users/me/two-factor',
    tags: ['two-factor'],
    summary: 'Whether two-factor login is on (or enrolled and waiting for its first code), and how many recovery codes are left',
    security: asAccount,
    responses: { 200: jsonResponse('the status', twoFactorStatusSchema), 401: unauthorized },
  });
  registry.registerPath({
    method: 'post',
    path: '/users/me/two-factor',
    tags: ['two-factor'],
    summary: 'Enrol an authenticator (confirmed with the password): a new TOTP secret and its otpauth URI, pending until confirmed',
    security: asAccount,
    request: { body: jsonBody(enrolTwoFactorBody) },
    responses: {
      200: jsonResponse('the secret, shown only here', twoFactorEnrolmentSchema),
      400: invalid,
      401: unauthorized,
      403: errorResponse('the password is wrong (Forbidden)'),
      409: errorResponse('two-factor login is on already (TwoFactorEnabled)'),
      429: errorResponse('too many wrong passwords (TooManyRequests)'),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/users/me/two-factor/confirm',
    tags: ['two-factor'],
    summary:
      'Turn two-factor login on with a first code from the enrolled secret; returns the recovery codes, shown only here. Tokens issued before stop working and every client key is deleted; a fresh account token is returned',
    security: asAccount,
    request: { body: jsonBody(confirmTwoFactorBody) },
    responses: {
      200: jsonResponse('the recovery codes, a new account access token, and what ended', recoveryCodesSchema),
      400: invalid,
      401: unauthorized,
      403: errorResponse('the code is wrong (InvalidTwoFactorCode)'),
      409: errorResponse('nothing enrolled (TwoFactorNotPending), or on already (TwoFactorEnabled)'),
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/users/me/two-factor',
    tags: ['two-factor'],
    summary: 'Turn two-factor login off (confirmed with the password and a code or a recovery code); the secret and recovery codes are deleted',
    security: asAccount,
    request: { body: jsonBody(disableTwoFactorBody) },
    responses: {
      204: { description: 'off' },
      400: invalid,
      401: unauthorized,
      403: errorResponse('the password (Forbidden) or the code (InvalidTwoFactorCode) is wrong'),
      409: errorResponse('two-factor login is off (TwoFactorNotEnabled)'),
      429: errorResponse('too many wrong passwords or codes (TooManyRequests)'),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/users/me/client-keys',
    tags: ['client keys'],
    summary: 'Make a client key pair; the secret is shown only here',
    security: asAccount,
    responses: { 200: jsonResponse('the key pair', clientKeySchema), 401: unauthorized, 403: errorResponse('too many keys (LimitExceeded)') },
  });
  registry.registerPath({
    method: 'get',
    path: '/users/me/client-keys',
    tags: ['client keys'],
    summary: 'List client keys (without secrets)',
    security: asAccount,
    responses: { 200: jsonResponse('the keys', z.array(clientKeySummarySchema)), 401: unauthorized },
  });
  registry.registerPath({
    method: 'delete',
    path: '/users/me/client-keys/{id}',
    tags: ['client keys'],
    summary: 'Delete a client key; tokens minted from it stop working',
    security: asAccount,
    request: { params: clientKeyParams },
    responses: { 204: { description: 'deleted' }, 401: unauthorized, 404: errorResponse('no such key of yours') },
  });
  registry.registerPath({
    method: 'get',
    path: '/users/me/events',
    tags: ['events'],
    summary: 'Event records of your calls, newest first',
    security: asAccount,
    request: { query: eventsQuery },
    responses: { 200: jsonResponse('events', z.array(eventSchema)), 400: invalid, 401: unauthorized },
  });

  return buildOpenApiDocument(registry, {
    title: 'Accounts API',
    version: '1.0.0',
    description: 'Users, e-mail verification, login, client keys and tokens, and the event list.',
  });
}
