import { UnauthorizedError } from './errors';
import type { ApiClient, ApiRequest } from './http';
import type { SessionManager } from './session';

/**
 * Runs a call with the session's client access token; if it is refused as unauthorized (revoked
 * or expired early), once more with a freshly minted one.
 */
export async function withClientToken<T>(session: SessionManager, call: (bearer: { bearer: string }) => Promise<T>): Promise<T> {
  try {
    return await call({ bearer: await session.clientAccessToken() });
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
    return call({ bearer: await session.clientAccessToken(true) });
  }
}

/** An API request with the session's client access token (the nodes and staking APIs). */
export function requestWithClientToken<T>(api: ApiClient, session: SessionManager, request: Omit<ApiRequest, 'auth'>): Promise<T> {
  return withClientToken(session, (auth) => api.request<T>({ ...request, auth }));
}
