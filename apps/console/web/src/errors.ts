import { CloudApiError, NotLoggedInError, TooManyRequestsError, TwoFactorRequiredError, UnauthorizedError, UnreachableError } from '@cloud/sdk/browser';

/**
 * An error as the person reads it: a sentence saying what went wrong and what to do, and the
 * API's code and request id (shown small, for support and for searching the docs).
 */
export interface ShownError {
  message: string;
  code?: string;
  requestId?: string;
}

/** Where the error happened, when the screen knows better words than the general ones. */
export type ErrorContext = 'login' | 'verify';

/** `displayName` → `display name`, `billingAddress.country` → `billing address country`. */
function fieldWords(path: string): string {
  return path
    .split('.')
    .map((part) => part.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase())
    .join(' ');
}

/**
 * The API's words as a sentence: the location of a refused field (`body.displayName: …`) said as
 * the field's name, a capital first letter, and a full stop.
 */
export function asSentence(text: string): string {
  const words = text.trim().replace(/\b(?:body|query|params)\.([A-Za-z][A-Za-z0-9.]*): /g, (_match, path: string) => `${fieldWords(path)}: `);
  if (!words) return words;
  const capitalised = words[0]!.toUpperCase() + words.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

/** What to do after an error of this code, when the API's words do not say it. */
const NEXT_STEP: Record<string, string> = {
  InvalidInput: 'Correct it and try again.',
  NotFound: 'It may have been deleted: go back to the list and look again.',
  UserNotVerified: 'Open the link in the verification e-mail first.',
  LimitExceeded: 'Delete one you no longer need, then try again.',
};

const BROKEN_VERIFY_LINK =
  'This verification link is broken: part of it is missing or changed, often because it was cut where the e-mail wrapped it. Open the whole link from the e-mail, or ask for a new e-mail below.';

export function describeError(error: unknown, context?: ErrorContext): ShownError {
  if (error instanceof TooManyRequestsError) {
    const wait = error.retryAfterSeconds ? ` Try again in ${error.retryAfterSeconds} s.` : ' Wait a moment and try again.';
    return { message: `${asSentence(error.message)}${wait}`, code: error.code, requestId: error.requestId };
  }
  if (error instanceof CloudApiError) {
    const shown = { code: error.code, requestId: error.requestId };
    if (context === 'login' && error instanceof UnauthorizedError) {
      return { ...shown, message: `${asSentence(error.message)} Check both and try again; if you forgot the password, reset it below.` };
    }
    if (context === 'verify') {
      if (error.code === 'UserVerified') return { ...shown, message: 'This e-mail address is verified already: you can log in.' };
      if (error.code === 'InvalidInput') return { ...shown, message: BROKEN_VERIFY_LINK };
      if (error.status === 404) {
        return {
          ...shown,
          message:
            'This verification link does not work any more: it was used already, a newer e-mail replaced it, or it is mistyped. Ask for a new e-mail below.',
        };
      }
    }
    if (error.status >= 500) {
      return {
        ...shown,
        message: `The ${error.service} service could not do this (${asSentence(error.message)}) Try again in a moment; if it keeps failing, quote the request id below.`,
      };
    }
    const next = NEXT_STEP[error.code] ?? '';
    return { ...shown, message: `${asSentence(error.message)}${next ? ` ${next}` : ''}` };
  }
  if (error instanceof UnreachableError) return { message: `Cannot reach the ${error.service} service; check your connection, or try again in a moment.` };
  if (error instanceof Error) return { message: asSentence(error.message) };
  return { message: asSentence(String(error)) };
}

/** What the verify page says for a link without its user or token. */
export const INCOMPLETE_VERIFY_LINK = BROKEN_VERIFY_LINK;

/**
 * Whether the error means the session is over (expired, revoked, or never there), so the person
 * goes back to the login page. A login's own wrong password (also a 401) is handled by the login
 * page and never comes here.
 */
export function endsSession(error: unknown): boolean {
  if (error instanceof TwoFactorRequiredError) return false;
  return error instanceof NotLoggedInError || error instanceof UnauthorizedError;
}
