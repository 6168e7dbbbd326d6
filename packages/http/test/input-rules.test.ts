import { z } from 'zod';
import { idOf, InvalidInputError, parseInput, timestamp } from '../src';
import { findUnstorableText } from '../src/input-rules';
import { nestsDeeperThan } from '../src/json-depth';

/** The message of the InvalidInputError `parse` throws. */
function refusal(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    return (error as InvalidInputError).message;
  }
  throw new Error('the input was accepted');
}

describe('parseInput: text every store can hold', () => {
  const profile = z.object({ name: z.string(), address: z.object({ lines: z.array(z.string()) }).optional() });

  it.each([
    ['a NUL in a field', { name: 'Ada\u0000' }, 'body.name: must not contain a NUL character (\\u0000)'],
    [
      'a lone low surrogate deep in an array',
      { name: 'Ada', address: { lines: ['ok', 'x\udfff'] } },
      'body.address.lines.1: must be valid Unicode (it holds a lone surrogate)',
    ],
    ['a lone high surrogate at the end', { name: 'Ada\ud83d' }, 'body.name: must be valid Unicode (it holds a lone surrogate)'],
    ['a NUL in a field name', { name: 'Ada', 'x\u0000': 1 }, 'body: a field name must not contain a NUL character (\\u0000)'],
  ])('refuses %s, naming the field, before the schema runs', (_what, value, message) => {
    expect(refusal(() => parseInput(profile, value, 'body'))).toBe(message);
  });

  it('checks fields the schema does not know, so no schema can forget the rule', () => {
    expect(refusal(() => parseInput(z.object({}).passthrough(), { note: '\u0000' }, 'query'))).toBe('query.note: must not contain a NUL character (\\u0000)');
  });

  it('accepts any other Unicode, including a surrogate pair and control characters other than NUL', () => {
    expect(parseInput(profile, { name: 'Ada 👩‍💻 \u0001 ü' }, 'body')).toEqual({ name: 'Ada 👩‍💻 \u0001 ü' });
  });
});

describe('timestamp()', () => {
  const query = z.object({ since: timestamp() });

  it.each(['0001-01-01T00:00:00Z', '2026-11-25T10:00:00.123+02:00', '9999-12-31T23:59:59.999Z'])('accepts %s', (since) => {
    expect(parseInput(query, { since }, 'query')).toEqual({ since });
  });

  it.each(['0000-01-01T00:00:00Z', '0001-01-01T00:30:00+01:00', '9999-12-31T23:30:00-01:00'])('refuses %s, outside what PostgreSQL stores', (since) => {
    expect(refusal(() => parseInput(query, { since }, 'query'))).toBe('query.since: must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z');
  });

  it.each(['+275760-09-13T00:00:00Z', '2026-02-30T00:00:00Z', 'yesterday', '2026-01-01'])('refuses %s as not an ISO 8601 date-time', (since) => {
    expect(refusal(() => parseInput(query, { since }, 'query'))).toBe('query.since: must be an ISO 8601 date-time');
  });
});

describe('idOf()', () => {
  const params = z.object({ id: idOf('node') });

  it('accepts the shape the platform issues', () => {
    const id = 'node-0f8e2c4a-5b1d-4e7f-9a3c-2d6b8e1f4a70';
    expect(parseInput(params, { id }, 'params')).toEqual({ id });
  });

  it.each([
    'node-x',
    'user-0f8e2c4a-5b1d-4e7f-9a3c-2d6b8e1f4a70',
    'node-0F8E2C4A-5B1D-4E7F-9A3C-2D6B8E1F4A70',
    'node-0f8e2c4a-5b1d-4e7f-9a3c-2d6b8e1f4a70 ',
    '',
  ])('refuses %p', (id) => {
    expect(refusal(() => parseInput(params, { id }, 'params'))).toBe('params.id: must be an id of the form node-<uuid>');
  });
});

describe('the walks over untrusted input, at any depth', () => {
  /** `depth` arrays, one inside the other, `inner` at the bottom. */
  const nested = (depth: number, inner: unknown): unknown => {
    let value = inner;
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  };

  it('finds unstorable text 100,000 levels down without a stack overflow, naming its path', () => {
    // The recursive walk it replaces threw RangeError past a few thousand levels (a 500).
    const found = findUnstorableText({ a: nested(100_000, 'nul\u0000') });
    expect(found?.problem).toBe('must not contain a NUL character (\\u0000)');
    expect(found?.path).toHaveLength(100_001);
    expect(found?.path.slice(0, 3)).toEqual(['a', '0', '0']);
    expect(findUnstorableText({ a: nested(100_000, 'fine') })).toBeUndefined();
  });

  it("reads a body's nesting in one pass, strings skipped, escapes kept", () => {
    const bytes = (text: string) => Buffer.from(text);
    expect(nestsDeeperThan(bytes('[[[]]]'), 3)).toBe(false);
    expect(nestsDeeperThan(bytes('[[[[]]]]'), 3)).toBe(true);
    expect(nestsDeeperThan(bytes('{"a":"[[[[[[","b":"\\"[[[["}'), 1)).toBe(false);
    expect(nestsDeeperThan(bytes('[[],[],[],[]]'), 2)).toBe(false);
    // Linear: a million brackets inside one string are read once and never counted.
    expect(nestsDeeperThan(bytes(`["${'['.repeat(1_000_000)}"]`), 1)).toBe(false);
  });
});
