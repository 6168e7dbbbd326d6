import type { KeyObject } from 'node:crypto';
import { fromPublicJwk, keyId } from './keys';
import type { Clock } from './clock';
import { systemClock } from './clock';

/** Finds the public key a token names in its `kid` header. */
export interface PublicKeyResolver {
  resolve(kid: string): Promise<KeyObject | undefined>;
}

/** Keys known up front: the accounts service's own, or keys configured from files. */
export function staticKeys(keys: KeyObject[]): PublicKeyResolver {
  const byId = new Map(keys.map((key) => [keyId(key), key]));
  return { resolve: (kid) => Promise.resolve(byId.get(kid)) };
}

export interface RemoteJwksOptions {
  /** Refetch no more often than this when a token names an unknown key (rotation). */
  minRefreshIntervalMs?: number;
  fetch?: typeof fetch;
  clock?: Clock;
  timeoutMs?: number;
}

/**
 * The accounts service's keys, read from its `/.well-known/jwks.json` and cached. An unknown
 * `kid` triggers one refetch (a rotated key), rate-limited so forged kids cannot make us hammer
 * the accounts service.
 */
export function remoteJwks(url: string, options: RemoteJwksOptions = {}): PublicKeyResolver {
  const { minRefreshIntervalMs = 30_000, fetch: fetchImpl = fetch, clock = systemClock, timeoutMs = 5_000 } = options;
  let keys = new Map<string, KeyObject>();
  let lastFetch = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<void> | undefined;

  const refresh = async () => {
    lastFetch = clock();
    const response = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`JWKS ${url} answered ${response.status}`);
    const body = (await response.json()) as { keys?: unknown };
    if (!Array.isArray(body.keys)) throw new Error(`JWKS ${url} has no keys array`);
    const next = new Map<string, KeyObject>();
    for (const jwk of body.keys as Array<Record<string, unknown>>) {
      if (typeof jwk.kid === 'string') next.set(jwk.kid, fromPublicJwk(jwk));
    }
    keys = next;
  };

  return {
    async resolve(kid) {
      const known = keys.get(kid);
      if (known) return known;
      // A fetch under way (started by a concurrent call, e.g. the first ones after a start) may
      // bring the key: wait for it rather than answer "unknown key" to a valid token.
      if (inFlight) {
        await inFlight;
        return keys.get(kid);
      }
      if (clock() - lastFetch < minRefreshIntervalMs) return undefined;
      inFlight = refresh().finally(() => {
        inFlight = undefined;
      });
      await inFlight;
      return keys.get(kid);
    },
  };
}
