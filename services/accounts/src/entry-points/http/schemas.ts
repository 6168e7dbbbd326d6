import { z } from 'zod';
import { idOf, timestamp } from '@cloud/http';
import { CLIENT_ID_LENGTH } from '../../domain/client-keys';
import { PASSWORD_MIN_LENGTH } from '../../domain/passwords';

// Request and response shapes of the accounts API. The same schemas validate input and build the
// OpenAPI document, so the two cannot drift apart.

const text = (max: number) => z.string().trim().max(max);

/**
 * A new password: its length here, so the OpenAPI document (and from it the console's forms, via
 * the SDK's generated limits) says it; the other rules (72 bytes at most, mixed, not the e-mail)
 * are the domain's passwordWeakness, with the same words.
 */
const newPasswordField = z
  .string({ error: 'is required' })
  .min(PASSWORD_MIN_LENGTH, { error: `must be at least ${PASSWORD_MIN_LENGTH} characters` })
  .max(200);

export const billingAddressSchema = z
  .strictObject({ country: text(100), zipCode: text(20), address: text(300), state: text(100) })
  .meta({ id: 'BillingAddress' });

export const signUpBody = z
  .strictObject({
    email: z.email({ error: 'must be an e-mail address' }).max(254),
    password: newPasswordField,
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
    newPassword: newPasswordField,
  })
  .meta({ id: 'ChangePasswordRequest' });

const currentPassword = z.string({ error: 'is required' }).min(1, { error: 'is required' }).max(200);

export const deleteUserBody = z.strictObject({ password: currentPassword }).meta({ id: 'DeleteUserRequest' });

const twoFactorCode = z
  .string({ error: 'is required' })
  .trim()
  .min(1, { error: 'is required' })
  .max(32)
  .meta({ description: 'the 6-digit code of the authenticator app, or a recovery code', example: '123456' });

export const loginBody = z
  .strictObject({ code: twoFactorCode.optional().meta({ description: 'the second factor, when the account has two-factor login on' }) })
  .meta({ id: 'LoginRequest' });

export const enrolTwoFactorBody = z.strictObject({ password: currentPassword }).meta({ id: 'TwoFactorEnrolRequest' });

export const confirmTwoFactorBody = z.strictObject({ code: twoFactorCode }).meta({ id: 'TwoFactorConfirmRequest' });

export const disableTwoFactorBody = z.strictObject({ password: currentPassword, code: twoFactorCode }).meta({ id: 'TwoFactorDisableRequest' });

export const twoFactorEnrolmentSchema = z
  .object({
    secret: z.string().meta({ description: 'base32, for typing into an authenticator app' }),
    uri: z
      .string()
      .meta({ description: 'otpauth://totp/… URI, for a QR code', example: 'otpauth://totp/Cloud%20Nodes:ada%40example.com?issuer=Cloud%20Nodes&secret=…' }),
  })
  .meta({ id: 'TwoFactorEnrolment', description: 'Pending until confirmed with a code from it.' });

export const endedCredentialsSchema = z
  .object({
    clientKeys: z.number().int().meta({ description: 'how many client keys of the account were deleted' }),
    clientKeyIds: z.array(z.string()).meta({ description: 'their ids: programs that used them need a new key' }),
    tokensIssuedBefore: z.string().meta({ description: 'every account, client and refresh token issued before this time stopped working (ISO 8601 UTC)' }),
  })
  .meta({ id: 'EndedCredentials', description: 'What a new password or turning two-factor login on ended; the owner is e-mailed the same.' });

const endedFields = {
  ended: endedCredentialsSchema,
  message: z.string().meta({ description: 'what happened and what ended, in words' }),
};

export const passwordChangedSchema = z
  .object({ accessToken: z.string().meta({ description: "the session's new account access token" }), ...endedFields })
  .meta({ id: 'PasswordChanged' });

export const passwordResetDoneSchema = z.object(endedFields).meta({ id: 'PasswordResetDone' });

export const recoveryCodesSchema = z
  .object({
    recoveryCodes: z.array(z.string()).meta({ description: 'single-use codes, each standing in for one TOTP code' }),
    accessToken: z.string().meta({ description: "the session's new account access token: every token issued before stopped working" }),
    ...endedFields,
  })
  .meta({ id: 'RecoveryCodes', description: 'Shown once, here.' });

export const twoFactorStatusSchema = z
  .object({ enabled: z.boolean(), pending: z.boolean(), recoveryCodesLeft: z.number().int() })
  .meta({ id: 'TwoFactorStatus' });

export const passwordResetRequestBody = z
  .strictObject({ email: z.email({ error: 'must be an e-mail address' }).max(254) })
  .meta({ id: 'PasswordResetRequest' });

export const passwordResetBody = z
  .strictObject({ password: newPasswordField })
  .meta({ id: 'PasswordReset', description: 'the new password, with the sign-up rules' });

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
    twoFactor: z.boolean().meta({ description: 'whether logging in needs a two-factor code' }),
  })
  .meta({ id: 'UserProfile' });

export const userReferenceParams = z.object({
  userId: z
    .union([idOf('user'), z.email().max(254)], { error: 'must be a user id (user-<uuid>) or an e-mail address' })
    .meta({ description: 'user id or e-mail address' }),
});

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

export const clientKeyParams = z.object({
  id: z.string().regex(new RegExp(`^[A-Za-z0-9]{${CLIENT_ID_LENGTH}}$`), { error: `must be a client key id (${CLIENT_ID_LENGTH} letters and digits)` }),
});

export const eventSchema = z
  .object({
    id: z.string(),
    user: z.string(),
    service: z.string().meta({ example: 'cloud-accounts' }),
    input: z.object({ method: z.string().optional(), route: z.string().optional(), resourceId: z.string().optional() }),
    output: z.object({ startTime: z.string(), endTime: z.string(), httpStatusCode: z.number().int(), bytesOut: z.number().int() }),
    serviceData: z.object({
      requestId: z.string().optional(),
      background: z.boolean().optional().meta({ description: 'true when the client marked the call as its own background read (x-cloud-background: 1)' }),
    }),
    createdAt: z.string(),
  })
  .meta({ id: 'Event' });

export const eventsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  before: idOf('event').optional().meta({ description: 'id of the last event of the previous page' }),
  service: z.string().max(64).optional(),
  since: timestamp().optional(),
  until: timestamp().optional(),
  background: z.enum(['true', 'false'], { error: 'must be true or false' }).optional().meta({
    description:
      "false: leave out the calls a client marked as its own background reads (x-cloud-background: 1, e.g. the console's page loads and refreshes); true: only those; absent: every call",
  }),
});
