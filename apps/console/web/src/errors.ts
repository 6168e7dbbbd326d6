import { CloudApiError, NotLoggedInError, TooManyRequestsError, TwoFactorRequiredError, UnauthorizedError, UnreachableError } from '@cloud/sdk/browser';

/** An error as the person reads it: the API's own words, and its code and request id for support. */
export interface ShownError {
  message: string;
  code?: string;
  requestId?: string;
}

export function describeError(error: unknown): ShownError {
  if (error instanceof TooManyRequestsError) {
    const wait = error.retryAfterSeconds ? ` Try again in ${error.retryAfterSeconds} s.` : '';
    return { message: `${error.message}.${wait}`.replace(/\.\./g, '.'), code: error.code, requestId: error.requestId };
  }
  if (error instanceof CloudApiError) return { message: error.message, code: error.code, requestId: error.requestId };
  if (error instanceof UnreachableError) return { message: `Cannot reach the ${error.service} service; check your connection, or try again in a moment.` };
  if (error instanceof Error) return { message: error.message };
  return { message: String(error) };
}

/**
 * Whether the error means the session is over (expired, revoked, or never there), so the person
 * goes back to the login page. A login's own wrong password (also a 401) is handled by the login
 * page and never comes here.
 */
export function endsSession(error: unknown): boolean {
  if (error instanceof TwoFactorRequiredError) return false;
  return error instanceof NotLoggedInError || error instanceof UnauthorizedError;
}
