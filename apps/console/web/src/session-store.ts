import type { Session } from '@cloud/sdk/browser';

// The one thing the console keeps in the browser: the SDK's Session (the account token, and the
// refresh and access tokens of the client key made for this login), what the CLI keeps in its
// 0600 file. sessionStorage, not localStorage: it is this tab's alone and gone when the tab closes.
// Node passwords and client secrets are shown once and never stored (see README.md).
const KEY = 'cloud.session';

export function loadSession(): Session | undefined {
  try {
    const text = sessionStorage.getItem(KEY);
    if (!text) return undefined;
    const session = JSON.parse(text) as Session;
    return typeof session.userId === 'string' ? session : undefined;
  } catch {
    return undefined;
  }
}

export function saveSession(session: Session | undefined): void {
  if (session) sessionStorage.setItem(KEY, JSON.stringify(session));
  else sessionStorage.removeItem(KEY);
}
