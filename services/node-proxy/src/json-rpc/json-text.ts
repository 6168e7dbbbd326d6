import { LosslessNumber, parse as losslessParse, stringify as losslessStringify } from 'lossless-json';

/** Most levels of nesting a request may have unless configured otherwise (PROXY_MAX_JSON_DEPTH). */
export const DEFAULT_MAX_DEPTH = 64;

/** A JSON text nested deeper than the limit: refused before anything recurses over it. */
export class TooDeepError extends Error {
  constructor(readonly limit: number) {
    super(`invalid request: the body is nested deeper than ${limit} levels`);
  }
}

/**
 * A parsed JSON text; `lossless` when it holds numbers JSON.parse would have changed (then kept as
 * LosslessNumber). `canonical` when the text is, to the character, what `stringifyJson` makes of
 * `value`: it can then be forwarded as it is, with no serialising, and still be exactly what was
 * checked (judged only for a text parsed with a depth bound).
 */
export interface ParsedJson {
  value: unknown;
  lossless: boolean;
  canonical: boolean;
}

const QUOTE = 0x22;
const COLON = 0x3a;
const SPACE = 0x20;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

/** What one pass over a raw text found: see `scan`. */
interface Shape {
  tooDeep: boolean;
  lossless: boolean;
  /** Nothing outside the strings JSON.stringify would write otherwise: no whitespace, no key starting with a digit. */
  compact: boolean;
  /** Its object keys (a colon outside the strings is the end of one). */
  keys: number;
}

/**
 * One pass over the raw text, before any parser sees it: how deep it nests (stopping past
 * `maxDepth`), and whether a number token would not survive JSON.parse → JSON.stringify as written
 * (`12345678901234567890`, `1e400`, `-0`, `1.50`). On the way it notes what else would keep the
 * text from being JSON.stringify's own writing of it (`compact`, `keys`: see `parseJson`).
 * Strings are skipped with indexOf, so an ordinary call costs a few dozen character reads.
 * Malformed text is left for the parser to refuse.
 */
function scan(text: string, maxDepth: number): Shape {
  let depth = 0;
  let lossless = false;
  let compact = true;
  let keys = 0;
  let stringStart = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      stringStart = i;
      i = endOfString(text, i);
      if (i < 0) break;
    } else if (c === COLON) {
      keys++;
      // An integer-like key: JavaScript objects list those first, so JSON.stringify would move it.
      const first = text.charCodeAt(stringStart + 1);
      if (first >= ZERO && first <= NINE) compact = false;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > maxDepth) return { tooDeep: true, lossless, compact, keys };
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
    } else if (c === SPACE || c === LINE_FEED || c === CARRIAGE_RETURN || c === TAB) {
      compact = false;
    }
  }
  return { tooDeep: false, lossless, compact, keys };
}

/** The index of the quote closing the string opened at `start`, or -1 when it is never closed. */
export function endOfString(text: string, start: number): number {
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
 *
 * `canonical`: JSON.stringify(value) would give back `text` itself, so a caller forwarding what it
 * checked can send the text and skip serialising it (the better part of a batch's cost). That
 * holds when every difference JSON.stringify could make is ruled out: no whitespace between
 * tokens, no backslash anywhere (JSON.stringify's escapes are not the only ones JSON allows, so
 * any escape sends the text the long way), every number as JSON.stringify writes it (the
 * `lossless` check), no key JavaScript would list first (one starting with a digit), and no key
 * given twice (JSON.parse keeps the last; the keys counted in the text and in the value differ).
 * Strings are written by JSON.stringify as they are read, but for escapes and lone surrogates
 * (which it escapes; a text decoded from UTF-8 has none).
 */
export function parseJson(text: string, maxDepth = Number.POSITIVE_INFINITY): ParsedJson {
  const shape = scan(text, maxDepth);
  if (shape.tooDeep) throw new TooDeepError(maxDepth);
  if (!shape.lossless) {
    const value = JSON.parse(text) as unknown;
    // Walked only under a depth bound (the scan's): the node's answers are parsed with none.
    const canonical = maxDepth !== Number.POSITIVE_INFINITY && shape.compact && !text.includes('\\') && isWellFormed(text) && keysOf(value) === shape.keys;
    return { value, lossless: false, canonical };
  }
  return { value: losslessParse(text, null, { parseNumber, onDuplicateKey: ({ newValue }) => newValue }), lossless: true, canonical: false };
}

/** String.prototype.isWellFormed (ES2024, in Node.js 20): no lone surrogate. One-byte strings answer at once. */
function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** How many keys the objects in a parsed value hold, all levels (the scan bounded its depth). */
function keysOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let keys = 0;
  if (Array.isArray(value)) {
    for (const item of value) if (typeof item === 'object' && item !== null) keys += keysOf(item);
    return keys;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    keys++;
    const item = record[key];
    if (typeof item === 'object' && item !== null) keys += keysOf(item);
  }
  return keys;
}

/** Serialises what `parseJson` made, numbers as they were written. */
export function stringifyJson(value: unknown, lossless: boolean): string {
  return lossless ? losslessStringify(value)! : JSON.stringify(value);
}
