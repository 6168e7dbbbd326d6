/**
 * Finding values in a JSON text without parsing it: where a member of an object is, as offsets in
 * the text. The cache keeps a node's `result` as the node wrote it (Bitcoin amounts such as
 * `50.00000000` would not survive JSON.parse and JSON.stringify), reads a block's height from it,
 * and rewrites its `confirmations` in place; a whole parse of a 1 MB block for that is the cost
 * these scans avoid. The texts are the node's answers, taken to be JSON: malformed text ends a
 * scan with "not found", never an exception.
 */

import { endOfString } from '../json-rpc/json-text';

const QUOTE = 0x22;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/** A value's place in a text: `text.slice(start, end)` is its JSON. */
export interface Span {
  start: number;
  end: number;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  return at;
}

/** Where the value starting at `start` ends (exclusive), or -1. Containers are walked with their strings skipped by indexOf. */
export function endOfValue(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) {
    const end = endOfString(text, start);
    return end < 0 ? -1 : end + 1;
  }
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        i = endOfString(text, i);
        if (i < 0) return -1;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        depth++;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (--depth === 0) return i + 1;
      }
    }
    return -1;
  }
  // A number, true, false or null: up to the next delimiter.
  let end = start;
  while (end < text.length) {
    const c = text.charCodeAt(end);
    if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isSpace(c)) break;
    end++;
  }
  return end > start ? end : -1;
}

/**
 * The members of the object starting at `objectStart` (at its own level only) whose names are in
 * `wanted`, as spans of their values. Stops once all are found, so a member near the start of a
 * large object costs little. Names are compared as written (the nodes write no escapes in them).
 */
export function findMembers(text: string, wanted: readonly string[], objectStart = 0): Map<string, Span> {
  const found = new Map<string, Span>();
  let at = skipSpace(text, objectStart);
  if (text.charCodeAt(at) !== OPEN_BRACE) return found;
  at = skipSpace(text, at + 1);
  while (at < text.length && text.charCodeAt(at) === QUOTE) {
    const nameEnd = endOfString(text, at);
    if (nameEnd < 0) return found;
    const name = text.slice(at + 1, nameEnd);
    at = skipSpace(text, nameEnd + 1);
    if (text.charCodeAt(at) !== COLON) return found;
    const start = skipSpace(text, at + 1);
    const end = endOfValue(text, start);
    if (end < 0) return found;
    if (wanted.includes(name)) {
      found.set(name, { start, end });
      if (found.size === wanted.length) return found;
    }
    at = skipSpace(text, end);
    if (text.charCodeAt(at) !== COMMA) return found;
    at = skipSpace(text, at + 1);
  }
  return found;
}

/** The value of one member of the object at `objectStart`, as its JSON text, or undefined. */
export function memberText(text: string, name: string, objectStart = 0): string | undefined {
  const span = findMembers(text, [name], objectStart).get(name);
  return span && text.slice(span.start, span.end);
}
