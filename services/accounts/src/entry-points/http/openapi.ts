import { z } from 'zod';
import { buildOpenApiDocument, errorResponse, jsonBody, jsonResponse, OpenAPIRegistry, type OpenApiDocument } from '@cloud/http';
import {
  accessTokenSchema,
  changePasswordBody,
  clientKeyParams,
  clientKeySchema,
  clientKeySummarySchema,
  clientTokensSchema,
  deleteUserBody,
  eventSchema,
  eventsQuery,
  profileSchema,
  signUpBody,
  tokenRequestBody,
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
    responses: { 201: jsonResponse('the new user', profileSchema), 400: invalid, 409: errorResponse('the e-mail address is taken (Conflict)') },
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
    summary: 'Change the password; tokens issued before stop working, a fresh account token is returned',
    security: asAccount,
    request: { body: jsonBody(changePasswordBody) },
    responses: {
      200: jsonResponse('a new account access token', accessTokenSchema),
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
    security: [{ [basic]: [] }],
    responses: {
      200: jsonResponse('the account access token', accessTokenSchema),
      401: errorResponse('wrong user id, e-mail or password'),
      403: errorResponse('e-mail not verified yet (UserNotVerified)'),
      429: errorResponse('too many failed logins (TooManyRequests)'),
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
