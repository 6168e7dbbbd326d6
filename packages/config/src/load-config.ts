import type { z } from 'zod';

/** Thrown when the environment does not satisfy a service's schema; the message names each variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Validates the environment against a service's schema. Keys of the schema are the environment
 * variable names; empty strings count as unset so `FOO=` in a .env file means "use the default".
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const variable = issue.path.length > 0 ? issue.path.join('.') : '(environment)';
        return `${variable}: ${issue.message}`;
      }),
    );
  }
  return result.data;
}
