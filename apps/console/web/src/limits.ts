import { LIMITS } from '@cloud/sdk/browser';

// The forms' limits come from the APIs' own schemas: the SDK's LIMITS is generated from the
// services' OpenAPI documents, which their zod schemas build. So a form field takes no more (and no
// less) than the API does, and a change of an API's limit reaches the form with the next build.

export { LIMITS };

/** One field's limits as the OpenAPI document states them. */
export interface FieldLimit {
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
}

/**
 * An API pattern as an input's `pattern` attribute, which browsers compile as `^(?:…)$` with the
 * `v` flag: the anchors go, and a literal `-` at either end of a character class is escaped (the
 * `v` flag refuses it bare). Undefined when the result still does not compile, so a browser is
 * never handed a pattern it would silently ignore.
 */
export function htmlPattern(pattern: string | undefined): string | undefined {
  if (pattern === undefined) return undefined;
  const bare = pattern.replace(/^\^/, '').replace(/(?<!\\)\$$/, '');
  const escaped = bare.replace(/(?<!\\)-\]/g, '\\-]').replace(/\[-/g, '[\\-');
  try {
    new RegExp(`^(?:${escaped})$`, 'v');
    return escaped;
  } catch {
    return undefined;
  }
}

/** The attributes of an `<input>` that hold it to the API's limits. */
export function inputLimits(limit: FieldLimit): { minLength?: number; maxLength?: number; pattern?: string; min?: number; max?: number } {
  const pattern = htmlPattern(limit.pattern);
  return {
    ...(limit.minLength === undefined ? {} : { minLength: limit.minLength }),
    ...(limit.maxLength === undefined ? {} : { maxLength: limit.maxLength }),
    ...(pattern === undefined ? {} : { pattern }),
    ...(limit.minimum === undefined ? {} : { min: limit.minimum }),
    ...(limit.maximum === undefined ? {} : { max: limit.maximum }),
  };
}

/**
 * What is wrong with a list field's lines for the API (too many, or a line that does not match
 * the pattern of its items), in a sentence saying what to do; undefined when the API will take it.
 */
export function listProblem(
  label: string,
  lines: readonly string[],
  limit: { readonly maxItems?: number; readonly items?: FieldLimit },
  item = 'a valid line',
): string | undefined {
  if (limit.maxItems !== undefined && lines.length > limit.maxItems) {
    return `${label}: ${lines.length} lines, but at most ${limit.maxItems} are taken. Remove ${lines.length - limit.maxItems}.`;
  }
  const pattern = limit.items?.pattern === undefined ? undefined : new RegExp(limit.items.pattern);
  const wrong = pattern ? lines.find((line) => !pattern.test(line)) : undefined;
  if (wrong !== undefined) return `${label}: "${wrong}" is not ${item}. Correct or remove that line.`;
  return undefined;
}
