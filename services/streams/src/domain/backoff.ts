/** The wait before the next try after `attempts` failures in a row: base·2^(attempts-1), at most max, ±20 % jitter. */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const delay = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(delay * (0.8 + 0.4 * random()));
}
