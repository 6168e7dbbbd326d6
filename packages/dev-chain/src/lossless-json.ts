import { isLosslessNumber, parse, stringify } from 'lossless-json';

/**
 * JSON as the real nodes read and write it for ids: Core and avalanchego echo the id as written
 * (`12345678901234567890`, `1e400`), which `JSON.parse` would change. Numbers stay text
 * (lossless-json) until the methods get their params, as plain numbers.
 */

/** The request as written; a body with duplicate keys (which lossless-json refuses) as JSON.parse reads it. */
export function parseRequest(body: string): unknown {
  try {
    return parse(body);
  } catch {
    return JSON.parse(body);
  }
}

/** A JSON object (not an array, not a number kept as text). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

/** Params as the methods take them: plain numbers. */
export function asNumbers(value: unknown): unknown {
  if (isLosslessNumber(value)) return Number(value.value);
  if (Array.isArray(value)) return value.map(asNumbers);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, each]) => [key, asNumbers(each)]));
  return value;
}

/** A reply, its id as the request wrote it. */
export function stringifyReply(value: unknown): string {
  return stringify(value) ?? 'null';
}
