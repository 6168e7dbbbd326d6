import { UsageError } from '../exit-codes';

// The links of the e-mails `verify` and `password reset --link` take: the API's or the console's.

/** The user id and token from the e-mail's link (the console's page or the API's), or from both arguments. */
export function verificationOf(first: string, token: string | undefined): { userId: string; token: string } {
  if (token !== undefined) return { userId: first, token };
  return linkOf(first, 'token', 'give the link from the verification e-mail, or your user id and the token');
}

/** The console page of each e-mailed action (`<console>/verify?user=<id>&token=<token>`). */
const CONSOLE_PAGES = { token: 'verify', 'password-reset': 'reset-password' } as const;

/**
 * The user id and token of an e-mailed link: the API's `…/users/<id>/<kind>/<token>`, or the
 * console's page `…/<page>?user=<id>&token=<token>`; a usage error naming `wrong` otherwise.
 */
export function linkOf(link: string, kind: 'token' | 'password-reset', wrong: string): { userId: string; token: string } {
  const match = new RegExp(`/users/([^/\\s]+)/${kind}/([^/?#\\s]+)/?$`).exec(link);
  if (match) return { userId: decodeURIComponent(match[1]!), token: decodeURIComponent(match[2]!) };
  const page = URL.canParse(link) ? new URL(link) : undefined;
  const userId = page?.searchParams.get('user');
  const token = page?.searchParams.get('token');
  if (page?.pathname.replace(/\/$/, '').endsWith(`/${CONSOLE_PAGES[kind]}`) && userId && token) return { userId, token };
  throw new UsageError(wrong);
}
