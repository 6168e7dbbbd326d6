// The requests of the input-at-the-edge test: for every route of an OpenAPI document, a
// well-formed baseline request and, for each path parameter, query parameter and string body
// field, the same request with one bad value put in that place.

/** An OpenAPI schema object, as much of it as the table reads. */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

interface Parameter {
  name: string;
  in: string;
  schema?: Schema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  security?: Record<string, string[]>[];
}

export interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

/** One request of the table; `field` (e.g. `params.id`) is where the bad value went, if any. */
export interface Case {
  name: string;
  method: string;
  /** The path with its parameters filled in and percent-encoded, and the query string. */
  url: string;
  body?: unknown;
  /** The security scheme the route asks for (`accountToken`, `clientToken`, `basic`), if any. */
  scheme?: string;
  /** An Authorization header to send instead of the scheme's good one. */
  authorization?: string;
  /** For a bad value: the field the 400 must name; for a baseline: undefined. */
  field?: string;
  /**
   * InvalidInput: 400 with that code (naming `field` when given); baseline: a JSON answer that is
   * neither a 400 nor a 5xx; any: a JSON answer that is not a 5xx.
   */
  expect: 'InvalidInput' | 'baseline' | 'any';
}

/** A bad value, and where it applies; `encoded` is how it goes into a URL. */
interface BadValue {
  name: string;
  value: string;
  encoded?: string;
  /** Which fields it is for: any string, date-time fields, or fields with a shape (ids, e-mail). */
  for: 'text' | 'date-time' | 'shaped';
  /** Set when, outside JSON (a URL, a header), the value cannot be sent as text (see the lone surrogate). */
  notTextInUrl?: true;
}

export const BAD_VALUES: BadValue[] = [
  { name: 'a NUL character', value: 'edge\u0000case', for: 'text' },
  // A lone surrogate has no UTF-8 form: in a URL it can only come as bytes that are not UTF-8,
  // which a path refuses (400) and a query string decodes to U+FFFD (storable text).
  { name: 'a lone surrogate', value: 'edge\udfffcase', encoded: 'edge%ED%BF%BFcase', for: 'text', notTextInUrl: true },
  { name: 'year 0000', value: '0000-01-01T00:00:00Z', for: 'date-time' },
  { name: 'a date before year 1 in UTC', value: '0001-01-01T00:30:00+01:00', encoded: '0001-01-01T00%3A30%3A00%2B01%3A00', for: 'date-time' },
  { name: 'a year past 9999', value: '+275760-09-13T00:00:00Z', encoded: '%2B275760-09-13T00%3A00%3A00Z', for: 'date-time' },
  { name: 'a malformed id', value: 'node-not-a-uuid', for: 'shaped' },
];

/** Well-formed path parameters, unknown to the platform: the baseline answers 404 for them. */
function baselineParam(path: string, name: string): string {
  if (name === 'id' && path.startsWith('/users/me/client-keys')) return 'A0b1C2d3E4f5G6h7I8j9K0l1M2n3O4p5Q6r7S8t9';
  if (name === 'id' && path.startsWith('/users/me/pools')) return 'pool-00000000-0000-4000-8000-000000000000';
  const values: Record<string, string> = {
    id: 'node-00000000-0000-4000-8000-000000000000',
    nodeId: 'node-00000000-0000-4000-8000-000000000001',
    streamId: 'stream-00000000-0000-4000-8000-000000000000',
    userId: 'user-00000000-0000-4000-8000-000000000000',
    token: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    chain: 'avalanche',
    network: 'fuji',
  };
  return values[name] ?? 'edge';
}

function resolve(document: Document, schema: Schema): Schema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  const found = document.components?.schemas?.[name];
  if (!found) throw new Error(`no schema ${schema.$ref}`);
  return resolve(document, found);
}

function typeOf(schema: Schema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type;
}

/** Whether a value can be of the wrong shape for the field: a pattern, a format or an enum. */
function isShaped(document: Document, schema: Schema): boolean {
  const resolved = resolve(document, schema);
  const members = resolved.anyOf ?? resolved.oneOf;
  if (members) return members.every((member) => isShaped(document, member));
  return resolved.pattern !== undefined || resolved.format !== undefined || resolved.enum !== undefined || resolved.const !== undefined;
}

let emails = 0;

/** Well-formed bodies for a schema: one per variant of a union, every property filled in. */
function baselineBodies(document: Document, schema: Schema): unknown[] {
  const resolved = resolve(document, schema);
  const members = resolved.oneOf ?? resolved.anyOf;
  if (members) return members.flatMap((member) => baselineBodies(document, member));
  if (resolved.allOf) return baselineBodies(document, resolved.allOf[0]!);
  if (resolved.const !== undefined) return [resolved.const];
  if (resolved.enum) return [resolved.enum[0]];
  switch (typeOf(resolved)) {
    case 'object':
      return [Object.fromEntries(Object.entries(resolved.properties ?? {}).map(([key, property]) => [key, baselineBodies(document, property)[0]]))];
    case 'array':
      // An empty list: items of a real list (CIDRs, origins) are domain values the table's
      // baseline strings would not pass.
      return [[]];
    case 'boolean':
      return [false];
    case 'integer':
    case 'number':
      return [resolved.minimum ?? 1];
    case 'string': {
      if (resolved.format === 'email') return [`edge-${process.pid}-${(emails += 1)}@example.com`];
      if (resolved.format === 'date-time') return ['2026-01-01T00:00:00Z'];
      return ['Edge case 42 Horse'.slice(0, resolved.maxLength ?? 100)];
    }
    default:
      throw new Error(`no baseline value for schema ${JSON.stringify(resolved)}`);
  }
}

/** The string fields of a body and their schemas: [path, schema] for each. */
function stringFields(document: Document, schema: Schema, body: unknown, path: string[] = []): [string[], Schema][] {
  const resolved = resolve(document, schema);
  if (body !== null && typeof body === 'object') {
    const variants = [resolved, ...(resolved.oneOf ?? resolved.anyOf ?? [])].map((variant) => resolve(document, variant));
    return Object.entries(body).flatMap(([key, value]) => {
      const property = variants.map((variant) => variant.properties?.[key]).find((found) => found !== undefined);
      return property ? stringFields(document, property, value, [...path, key]) : [];
    });
  }
  return typeof body === 'string' ? [[path, resolved]] : [];
}

function withValue(body: unknown, path: string[], value: string): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  parent[path.at(-1)!] = value;
  return copy;
}

function appliesTo(document: Document, bad: BadValue, schema: Schema): boolean {
  const resolved = resolve(document, schema);
  if (bad.for === 'text') return true;
  if (bad.for === 'date-time') return resolved.format === 'date-time';
  // A malformed id is a bad value only where the field's pattern refuses it (a credential's name
  // may look like one).
  if (resolved.pattern !== undefined && new RegExp(resolved.pattern, 'u').test(bad.value)) return false;
  return isShaped(document, schema) && resolved.format !== 'date-time';
}

/**
 * Every case of the table for one document. `bodyOverrides` (by route, e.g. `POST /users/me/nodes`)
 * replace fields of the generated baseline bodies where the schema alone does not make one the
 * installation accepts.
 */
export function casesOf(document: Document, bodyOverrides: Record<string, Record<string, unknown>> = {}): Case[] {
  const cases: Case[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const route = `${method.toUpperCase()} ${path}`;
      const scheme = operation.security?.[0] ? Object.keys(operation.security[0])[0] : undefined;
      const parameters = operation.parameters ?? [];
      const pathParams = parameters.filter((parameter) => parameter.in === 'path');
      const queryParams = parameters.filter((parameter) => parameter.in === 'query');
      const urlWith = (replace?: { name: string; in: string; encoded: string }) => {
        let url = path;
        for (const { name } of pathParams) {
          const value = replace?.in === 'path' && replace.name === name ? replace.encoded : encodeURIComponent(baselineParam(path, name));
          url = url.replace(`{${name}}`, value);
        }
        return replace?.in === 'query' ? `${url}?${replace.name}=${replace.encoded}` : url;
      };
      const bodySchema = operation.requestBody?.content['application/json']?.schema;
      const bodies = bodySchema ? baselineBodies(document, bodySchema).map((body) => ({ ...(body as object), ...bodyOverrides[route] })) : [undefined];
      const base = { method, scheme };
      bodies.forEach((body, variant) => {
        cases.push({ ...base, name: `${route} baseline${bodies.length > 1 ? ` ${variant + 1}` : ''}`, url: urlWith(), body, expect: 'baseline' });
      });
      for (const bad of BAD_VALUES) {
        // Basic credentials reach the database too: the bad text as the user name (UTF-8 in
        // base64, so a lone surrogate cannot be sent there either).
        if (scheme === 'basic' && bad.for === 'text' && !bad.notTextInUrl) {
          const authorization = `Basic ${Buffer.from(`${bad.value}@example.com:correct horse 42`).toString('base64')}`;
          cases.push({
            ...base,
            name: `${route} Basic user = ${bad.name}`,
            url: urlWith(),
            body: bodies[0],
            authorization,
            field: 'authorization',
            expect: 'InvalidInput',
          });
        }
        for (const parameter of [...pathParams, ...queryParams]) {
          if (!parameter.schema || !appliesTo(document, bad, parameter.schema)) continue;
          const where = parameter.in === 'path' ? 'params' : 'query';
          const encoded = bad.encoded ?? encodeURIComponent(bad.value);
          const expect = bad.notTextInUrl && parameter.in === 'query' ? 'any' : 'InvalidInput';
          cases.push({
            ...base,
            name: `${route} ${where}.${parameter.name} = ${bad.name}`,
            url: urlWith({ name: parameter.name, in: parameter.in, encoded }),
            body: bodies[0],
            // An undecodable path is refused before its parameters are known.
            field: bad.notTextInUrl ? undefined : `${where}.${parameter.name}`,
            expect,
          });
        }
        if (!bodySchema) continue;
        for (const body of bodies) {
          for (const [field, schema] of stringFields(document, bodySchema, body)) {
            if (!appliesTo(document, bad, schema)) continue;
            cases.push({
              ...base,
              name: `${route} body.${field.join('.')} = ${bad.name}`,
              url: urlWith(),
              body: withValue(body, field, bad.value),
              field: ['body', ...field].join('.'),
              expect: 'InvalidInput',
            });
          }
        }
      }
    }
  }
  return cases;
}
