const SECRET_KEY = /pass(word)?|secret|token|authorization|cookie|api[-_]?key|private[-_]?key|credential/i;

export const REDACTED = '[redacted]';

/**
 * Returns a copy of `value` with every property whose name looks like a secret replaced, at any
 * depth. Log calls go through this, so a secret passed by mistake in log metadata never reaches
 * the output.
 */
export function redactSecrets(value: unknown, seen = new WeakSet<object>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, seen));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, SECRET_KEY.test(key) ? REDACTED : redactSecrets(item, seen)]));
}
