import type { z } from 'zod';
import { InvalidInputError } from './errors';
import { findUnstorableText } from './input-rules';

/**
 * Parses untrusted input (body, query, params) with a zod schema, or throws a 400 InvalidInput
 * whose message names each offending field, e.g. `body.email: must be an e-mail address`. Before
 * the schema, every string in the input (and every field name) is checked to be storable text, so
 * no route can forget it.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query' | 'params'): z.infer<S> {
  const unstorable = findUnstorableText(value);
  if (unstorable) throw new InvalidInputError(`${[where, ...unstorable.path].join('.')}: ${unstorable.problem}`);
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const field = [where, ...issue.path.map(String)].join('.');
    return `${field}: ${issue.message}`;
  });
  throw new InvalidInputError(problems.join('; '));
}
