import { z } from 'zod';

// Request and response shapes of the accounts API. The same schemas validate input and build the
// OpenAPI document, so the two cannot drift apart.

const text = (max: number) => z.string().trim().max(max);

export const billingAddressSchema = z
  .strictObject({ country: text(100), zipCode: text(20), address: text(300), state: text(100) })
  .meta({ id: 'BillingAddress' });

export const signUpBody = z
  .strictObject({
    email: z.email({ error: 'must be an e-mail address' }).max(254),
    password: z.string({ error: 'is required' }).max(200),
    displayName: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(100),
    billingAddress: billingAddressSchema.partial().optional(),
  })
  .meta({ id: 'SignUpRequest' });

export const updateProfileBody = z
  .strictObject({
    displayName: text(100).min(1).optional(),
    billingAddress: billingAddressSchema.partial().optional(),
  })
  .refine((body) => body.displayName !== undefined || body.billingAddress !== undefined, {
    error: 'give displayName or billingAddress',
  })
  .meta({ id: 'UpdateProfileRequest' });

export const changePasswordBody = z
  .strictObject({
    oldPassword: z.string({ error: 'is required' }).min(1).max(200),
    newPassword: z.string({ error: 'is required' }).max(200),
  })
  .meta({ id: 'ChangePasswordRequest' });

export const deleteUserBody = z
  .strictObject({ password: z.string({ error: 'is required' }).min(1).max(200) })
  .meta({ id: 'DeleteUserRequest' });

export const profileSchema = z
  .object({
    id: z.string().meta({ example: 'user-3f1c1c3e-8a55-4a4e-9f51-8f3b8f1c2d10' }),
    email: z.string(),
    displayName: z.string(),
    entityType: z.string().meta({ example: 'individual' }),
    verifiedAt: z.string().nullable().meta({ description: 'ISO 8601 UTC with milliseconds; null until verified' }),
    createdAt: z.string(),
    updatedAt: z.string(),
    billingAddress: billingAddressSchema,
  })
  .meta({ id: 'UserProfile' });

export const userReferenceParams = z.object({ userId: z.string().min(1).max(254).meta({ description: 'user id or e-mail address' }) });

export const verifyParams = userReferenceParams.extend({ token: z.string().min(1).max(200) });

export const accessTokenSchema = z.object({ accessToken: z.string() }).meta({ id: 'AccessToken' });

export const tokenRequestBody = z
  .discriminatedUnion(
    'grantType',
    [
      z.strictObject({
        grantType: z.literal('clientCredentials'),
        clientId: z.string({ error: 'is required for grantType clientCredentials' }).min(1).max(100),
        clientSecret: z.string({ error: 'is required for grantType clientCredentials' }).min(1).max(200),
      }),
      z.strictObject({
        grantType: z.literal('refreshToken'),
        refreshToken: z.string({ error: 'is required for grantType refreshToken' }).min(1).max(4096),
      }),
    ],
    { error: 'must be clientCredentials or refreshToken' },
  )
  .meta({ id: 'TokenRequest' });

export const clientTokensSchema = z.object({ accessToken: z.string(), refreshToken: z.string() }).meta({ id: 'ClientTokens' });

export const clientKeySchema = z
  .object({ clientId: z.string().length(40), clientSecret: z.string().length(80), createdAt: z.string() })
  .meta({ id: 'ClientKey', description: 'The secret is shown once, here.' });

export const clientKeySummarySchema = z.object({ id: z.string().length(40), createdAt: z.string() }).meta({ id: 'ClientKeySummary' });

export const clientKeyParams = z.object({ id: z.string().min(1).max(100) });

export const eventSchema = z
  .object({
    id: z.string(),
    user: z.string(),
    service: z.string().meta({ example: 'cloud-accounts' }),
    input: z.object({ method: z.string().optional(), route: z.string().optional(), resourceId: z.string().optional() }),
    output: z.object({ startTime: z.string(), endTime: z.string(), httpStatusCode: z.number().int(), bytesOut: z.number().int() }),
    serviceData: z.object({ requestId: z.string().optional() }),
    createdAt: z.string(),
  })
  .meta({ id: 'Event' });

export const eventsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  before: z
    .string()
    .regex(/^event-[0-9a-f-]{36}$/, { error: 'must be an event id' })
    .optional()
    .meta({ description: 'id of the last event of the previous page' }),
  service: z.string().max(64).optional(),
  since: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).optional(),
  until: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).optional(),
});
