/**
 * The wait before the next try after `attempts` failures in a row: `baseMs·2^(attempts-1)`, at most
 * `maxMs`, ±20 % jitter so that streams failing together do not retry together.
 */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const delay = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(delay * (0.8 + 0.4 * random()));
}
