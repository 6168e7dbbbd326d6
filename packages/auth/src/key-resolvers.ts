import type { KeyObject } from 'node:crypto';
import { ServiceUnavailableError } from '@cloud/http';
import { fromPublicJwk, keyId } from './keys';
import type { Clock } from './clock';
import { systemClock } from './clock';

/** Finds the public key a token names in its `kid` header. */
export interface PublicKeyResolver {
  /**
   * The key, or undefined when the key set is known and has no such key (the token is refused
   * 401). Rejects with a `ServiceUnavailableError` when the key set cannot be read (503: the token
   * may well be valid).
   */
  resolve(kid: string): Promise<KeyObject | undefined>;
  /** The readiness probe: rejects while no key set is loaded. */
  checkReady(): Promise<void>;
}

/** Keys known up front: the accounts service's own, or keys configured from files. */
export function staticKeys(keys: KeyObject[]): PublicKeyResolver {
  const byId = new Map(keys.map((key) => [keyId(key), key]));
  return { resolve: (kid) => Promise.resolve(byId.get(kid)), checkReady: () => Promise.resolve() };
}

export interface RemoteJwksOptions {
  /** Refetch no more often than this when a token names an unknown key (rotation). */
  minRefreshIntervalMs?: number;
  /** After a failed fetch, wait this long before the next, doubling up to `maxRetryDelayMs`. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  fetch?: typeof fetch;
  clock?: Clock;
  timeoutMs?: number;
}

/**
 * The accounts service's keys, read from its `/.well-known/jwks.json` and cached. An unknown
 * `kid` triggers one refetch (a rotated key), rate-limited after a successful fetch so forged
 * kids cannot make us hammer the accounts service. A failed fetch (the accounts service away) is
 * tried again after a short backoff, on the next call or readiness probe: until a fetch succeeds
 * no token can be checked, so a key it did not find is answered 503, never 401 "unknown key".
 */
export function remoteJwks(url: string, options: RemoteJwksOptions = {}): PublicKeyResolver {
  const {
    minRefreshIntervalMs = 30_000,
    retryDelayMs = 200,
    maxRetryDelayMs = 1_000,
    fetch: fetchImpl = fetch,
    clock = systemClock,
    timeoutMs = 5_000,
  } = options;
  let keys = new Map<string, KeyObject>();
  let loaded = false;
  /** Until then, the key set is fresh: an unknown kid is refused without a refetch. */
  let freshUntil = Number.NEGATIVE_INFINITY;
  /** After a failure, no fetch before then. */
  let retryAt = Number.NEGATIVE_INFINITY;
  let failures = 0;
  let inFlight: Promise<boolean> | undefined;

  const unavailable = () =>
    new ServiceUnavailableError('the token signing keys cannot be read from the accounts service yet; try again shortly', 'KeysUnavailable', 1);

  const fetchKeys = async () => {
    const response = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`JWKS ${url} answered ${response.status}`);
    const body = (await response.json()) as { keys?: unknown };
    if (!Array.isArray(body.keys)) throw new Error(`JWKS ${url} has no keys array`);
    const next = new Map<string, KeyObject>();
    for (const jwk of body.keys as Array<Record<string, unknown>>) {
      if (typeof jwk.kid === 'string') next.set(jwk.kid, fromPublicJwk(jwk));
    }
    return next;
  };

  /** Fetches the key set (one fetch for every concurrent caller); resolves whether it succeeded. */
  const refresh = (): Promise<boolean> => {
    inFlight ??= fetchKeys()
      .then(
        (next) => {
          keys = next;
          loaded = true;
          failures = 0;
          freshUntil = clock() + minRefreshIntervalMs;
          return true;
        },
        () => {
          retryAt = clock() + Math.min(retryDelayMs * 2 ** failures, maxRetryDelayMs);
          failures += 1;
          return false;
        },
      )
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };

  /** Fetches unless the key set is fresh or a failed fetch is being backed off from; resolves whether the keys are current. */
  const refreshIfDue = async (): Promise<boolean> => {
    // A fetch under way (started by a concurrent call, e.g. the first ones after a start) may
    // bring the key: wait for it rather than answer "unknown key" to a valid token.
    if (inFlight) return inFlight;
    if (clock() < freshUntil) return true;
    if (clock() < retryAt) return false;
    return refresh();
  };

  return {
    async resolve(kid) {
      const known = keys.get(kid);
      if (known) return known;
      if (!(await refreshIfDue())) throw unavailable();
      return keys.get(kid);
    },
    async checkReady() {
      if (loaded) return;
      if (!(await refreshIfDue())) throw unavailable();
    },
  };
}
