import { LosslessNumber, parse as losslessParse, stringify as losslessStringify } from 'lossless-json';

/** Most levels of nesting a request may have unless configured otherwise (PROXY_MAX_JSON_DEPTH). */
export const DEFAULT_MAX_DEPTH = 64;

/** A JSON text nested deeper than the limit: refused before anything recurses over it. */
export class TooDeepError extends Error {
  constructor(readonly limit: number) {
    super(`invalid request: the body is nested deeper than ${limit} levels`);
  }
}

/** A parsed JSON text; `lossless` when it holds numbers JSON.parse would have changed (then kept as LosslessNumber). */
export interface ParsedJson {
  value: unknown;
  lossless: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

/**
 * One pass over the raw text, before any parser sees it: how deep it nests (stopping past
 * `maxDepth`), and whether a number token would not survive JSON.parse → JSON.stringify as written
 * (`12345678901234567890`, `1e400`, `-0`, `1.50`). Strings are skipped with indexOf, so an ordinary
 * call costs a few dozen character reads. Malformed text is left for the parser to refuse.
 */
function scan(text: string, maxDepth: number): { tooDeep: boolean; lossless: boolean } {
  let depth = 0;
  let lossless = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = endOfString(text, i);
      if (i < 0) break;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > maxDepth) return { tooDeep: true, lossless };
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
      let end = i + 1;
      let digitsOnly = true;
      for (; end < text.length; end++) {
        const d = text.charCodeAt(end);
        if (d >= ZERO && d <= NINE) continue;
        if (!isNumberPart(d)) break;
        digitsOnly = false;
      }
      if (!lossless && !isPlainInteger(text, i, end, digitsOnly)) {
        const token = text.slice(i, end);
        lossless = String(Number(token)) !== token;
      }
      i = end - 1;
    }
  }
  return { tooDeep: false, lossless };
}

/** The index of the quote closing the string opened at `start`, or -1 when it is never closed. */
function endOfString(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  while (end > 0) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return -1;
}

/**
 * Whether the number token at `start`..`end`, of digits only after an optional minus, survives
 * JSON.parse as written without converting it: at most 15 digits (so below 2^53) and no leading
 * zero (`-0` and `01` do not). Most ids are such; the others take the conversion.
 */
function isPlainInteger(text: string, start: number, end: number, digitsOnly: boolean): boolean {
  const first = text.charCodeAt(start) === MINUS ? start + 1 : start;
  const digits = end - first;
  return digitsOnly && digits > 0 && digits <= 15 && (text.charCodeAt(first) !== ZERO || (digits === 1 && first === start));
}

function isNumberPart(c: number): boolean {
  return (c >= ZERO && c <= NINE) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === MINUS;
}

/** Numbers that round-trip stay plain numbers; only the others are kept as their text. */
function parseNumber(text: string): number | LosslessNumber {
  const value = Number(text);
  return String(value) === text ? value : new LosslessNumber(text);
}

/**
 * Parses a JSON text, throwing TooDeepError past `maxDepth` and SyntaxError when it is not JSON.
 * The common text takes JSON.parse; only one with numbers JSON.parse would change takes
 * lossless-json (its duplicate keys resolved as JSON.parse does: the last one wins).
 */
export function parseJson(text: string, maxDepth = Number.POSITIVE_INFINITY): ParsedJson {
  const shape = scan(text, maxDepth);
  if (shape.tooDeep) throw new TooDeepError(maxDepth);
  if (!shape.lossless) return { value: JSON.parse(text) as unknown, lossless: false };
  return { value: losslessParse(text, null, { parseNumber, onDuplicateKey: ({ newValue }) => newValue }), lossless: true };
}

/** Serialises what `parseJson` made, numbers as they were written. */
export function stringifyJson(value: unknown, lossless: boolean): string {
  return lossless ? losslessStringify(value)! : JSON.stringify(value);
}
