import { z } from 'zod';

// What every service refuses at the edge, before a handler or the database sees it: text that
// PostgreSQL (or its UTF-8 encoding) cannot store, dates outside what it stores, and ids that are
// not the shape the platform issues. docs/decisions/014-input-at-the-edge.md says why.

// In a `u` regular expression a surrogate pair is one code point; only a lone surrogate is Cs.
const LONE_SURROGATE = /\p{Cs}/u;

/** Why `value` cannot be stored as text, or undefined when it can. */
export function unstorableTextProblem(value: string): string | undefined {
  // PostgreSQL text holds no NUL byte; a lone surrogate has no UTF-8 encoding.
  if (value.includes('\u0000')) return 'must not contain a NUL character (\\u0000)';
  if (LONE_SURROGATE.test(value)) return 'must be valid Unicode (it holds a lone surrogate)';
  return undefined;
}

/** A value met in the walk, with how it was reached: its key and the entry it is in (the path, built only when needed). */
interface Visit {
  value: unknown;
  key: string | undefined;
  parent: Visit | undefined;
}

function pathOf(visit: Visit | undefined): string[] {
  const path: string[] = [];
  for (let at = visit; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The first string (value or object key) in `value` that cannot be stored: its path and why.
 * Iterative, each value visited once and the path built only for the one reported, so the work is
 * linear in the input's size at any depth (bodies are also bounded to MAX_BODY_DEPTH before they
 * are parsed: json-depth.ts).
 */
export function findUnstorableText(value: unknown): { path: string[]; problem: string } | undefined {
  const pending: Visit[] = [{ value, key: undefined, parent: undefined }];
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    if (typeof visit.value === 'string') {
      const problem = unstorableTextProblem(visit.value);
      if (problem !== undefined) return { path: pathOf(visit), problem };
      continue;
    }
    if (visit.value === null || typeof visit.value !== 'object') continue;
    const entries = Object.entries(visit.value);
    // Pushed last first, so entries are met in order, as the field names in a message read.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      pending.push({ value: item, key, parent: visit });
    }
    for (const [key] of entries) {
      const keyProblem = unstorableTextProblem(key);
      if (keyProblem !== undefined) return { path: pathOf(visit), problem: `a field name ${keyProblem}` };
    }
  }
  return undefined;
}

// ISO 8601 with four-digit years, as JavaScript prints dates and PostgreSQL reads them. Year 0000
// (1 BC) is not a year PostgreSQL accepts in this form.
const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/** An ISO 8601 date-time with an offset, from 0001-01-01 to 9999-12-31 (UTC). */
export function timestamp() {
  return z.iso
    .datetime({ offset: true, abort: true, error: 'must be an ISO 8601 date-time' })
    .refine(
      (value) => {
        const time = Date.parse(value);
        return time >= EARLIEST && time <= LATEST;
      },
      { error: 'must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z' },
    )
    .meta({ example: '2026-01-31T12:00:00Z' });
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** The pattern of the ids the platform issues: `<kind>-<lower-case UUID>`, e.g. `node-0f8e…`. */
function idPattern(kind: string): RegExp {
  return new RegExp(`^${kind}-${UUID}$`);
}

/** An id of `kind` (`user`, `node`, `event`): anything else is refused before a lookup. */
export function idOf(kind: string) {
  return z
    .string()
    .regex(idPattern(kind), { error: `must be an id of the form ${kind}-<uuid>` })
    .meta({ example: `${kind}-0f8e2c4a-5b1d-4e7f-9a3c-2d6b8e1f4a70` });
}
