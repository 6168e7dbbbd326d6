// Benchmark settings from the environment, checked so a typo fails at once rather than measuring the wrong thing.

/** An integer setting (underscores allowed: 1_500), at least `minimum`; `fallback` when unset or empty. */
export function integerSetting(name: string, fallback: number, minimum = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(value) || value < minimum) throw new Error(`${name} must be an integer ≥ ${minimum}, not ${raw}`);
  return value;
}

/** A comma-separated subset of `all`; all of them when unset. */
export function listSetting<T extends string>(name: string, all: readonly T[]): T[] {
  const raw = process.env[name];
  if (!raw) return [...all];
  const wanted = raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const unknown = wanted.filter((item) => !all.includes(item as T));
  if (unknown.length > 0) throw new Error(`${name}: unknown ${unknown.join(', ')} (known: ${all.join(', ')})`);
  return wanted as T[];
}
