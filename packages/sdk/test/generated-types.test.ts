import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { accountsOpenApiDocument } from '@cloud/accounts';
import { nodesOpenApiDocument } from '@cloud/nodes';
import { stakingOpenApiDocument } from '@cloud/staking';
import { streamsOpenApiDocument } from '@cloud/streams';
import { LIMITS } from '../src';

// The SDK's types are generated from the OpenAPI documents the services serve, so a change of an
// API shows here as a failing test (and then as type errors in the SDK) instead of as a surprise
// for SDK users. `UPDATE_GENERATED=1 npm test -w @cloud/sdk -- generated-types` rewrites them.
const documents = { accounts: accountsOpenApiDocument, nodes: nodesOpenApiDocument, staking: stakingOpenApiDocument, streams: streamsOpenApiDocument };

describe('generated API types', () => {
  it.each(Object.entries(documents))("src/generated/%s.ts matches the service's OpenAPI document", async (name, document) => {
    const { default: openapiTS, astToString } = await import('openapi-typescript');
    const header = `// Generated from the ${name} service's OpenAPI document by test/generated-types.test.ts; do not edit.\n`;
    const expected = header + astToString(await openapiTS(JSON.parse(JSON.stringify(document())) as never));
    const file = path.join(__dirname, '..', 'src', 'generated', `${name}.ts`);
    if (process.env.UPDATE_GENERATED === '1') writeFileSync(file, expected);
    expect(readFileSync(file, 'utf8')).toBe(expected);
  });
});

// The limits of every request body's fields (lengths, patterns, list sizes, bounds), as the zod
// schemas set them and the OpenAPI documents publish them: the console's forms take theirs from
// here, so a form cannot allow what the API refuses.
const LIMIT_KEYWORDS = ['minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'minimum', 'maximum'] as const;

interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  [keyword: string]: unknown;
}

function limitsOf(schema: JsonSchema, components: Record<string, JsonSchema>): Record<string, unknown> | undefined {
  const resolved = schema.$ref ? components[schema.$ref.split('/').pop()!]! : schema;
  const limits: Record<string, unknown> = {};
  for (const keyword of LIMIT_KEYWORDS) if (resolved[keyword] !== undefined) limits[keyword] = resolved[keyword];
  if (resolved.items) {
    const items = limitsOf(resolved.items, components);
    if (items) limits.items = items;
  }
  for (const [name, property] of Object.entries(resolved.properties ?? {})) {
    const field = limitsOf(property, components);
    if (field) limits[name] = field;
  }
  return Object.keys(limits).length > 0 ? limits : undefined;
}

function requestLimits(document: {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
  components?: { schemas?: Record<string, JsonSchema> };
}) {
  const components = document.components?.schemas ?? {};
  const limits: Record<string, unknown> = {};
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations)) {
      const ref = operation.requestBody?.content?.['application/json']?.schema?.$ref;
      if (!ref) continue;
      const name = ref.split('/').pop()!;
      const found = limitsOf({ $ref: ref }, components);
      if (found) limits[name] = found;
    }
  }
  return Object.fromEntries(Object.entries(limits).sort(([a], [b]) => a.localeCompare(b)));
}

describe('generated limits', () => {
  it("src/generated/limits.ts matches the services' OpenAPI documents", () => {
    const all = Object.fromEntries(Object.entries(documents).map(([name, document]) => [name, requestLimits(JSON.parse(JSON.stringify(document())) as never)]));
    const expected = [
      "// Generated from the services' OpenAPI documents by test/generated-types.test.ts; do not edit.",
      '',
      "/** The limits of each request body's fields, by service and request schema, as the APIs check them: forms take the same. */",
      `export const LIMITS = ${JSON.stringify(all, null, 2)} as const;`,
      '',
    ].join('\n');
    const file = path.join(__dirname, '..', 'src', 'generated', 'limits.ts');
    if (process.env.UPDATE_GENERATED === '1') writeFileSync(file, expected);
    expect(readFileSync(file, 'utf8')).toBe(expected);
  });

  it('holds the limits the forms use', () => {
    expect(LIMITS.accounts.SignUpRequest.displayName).toEqual({ minLength: 1, maxLength: 100 });
    expect(LIMITS.accounts.SignUpRequest.password).toEqual({ minLength: 10, maxLength: 200 });
    expect(LIMITS.nodes.CreateCredentialRequest.name.pattern).toBe('^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$');
    expect(LIMITS.nodes.NodeAccessRequest.refusedMethods.maxItems).toBe(200);
  });
});
