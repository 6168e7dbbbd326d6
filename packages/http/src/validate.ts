import type { z } from 'zod';
import { InvalidInputError } from './errors';

/**
 * Parses untrusted input (body, query, params) with a zod schema, or throws a 400 InvalidInput
 * whose message names each offending field, e.g. `body.email: must be an e-mail address`.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query' | 'params'): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const field = [where, ...issue.path.map(String)].join('.');
    return `${field}: ${issue.message}`;
  });
  throw new InvalidInputError(problems.join('; '));
}
