import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { accountsOpenApiDocument } from '@cloud/accounts';
import { nodesOpenApiDocument } from '@cloud/nodes';
import { stakingOpenApiDocument } from '@cloud/staking';

// The SDK's types are generated from the OpenAPI documents the services serve, so a change of an
// API shows here as a failing test (and then as type errors in the SDK) instead of as a surprise
// for SDK users. `UPDATE_GENERATED=1 npm test -w @cloud/sdk -- generated-types` rewrites them.
const documents = { accounts: accountsOpenApiDocument, nodes: nodesOpenApiDocument, staking: stakingOpenApiDocument };

describe('generated API types', () => {
  it.each(Object.entries(documents))('src/generated/%s.ts matches the service\'s OpenAPI document', async (name, document) => {
    const { default: openapiTS, astToString } = await import('openapi-typescript');
    const header = `// Generated from the ${name} service's OpenAPI document by test/generated-types.test.ts; do not edit.\n`;
    const expected = header + astToString(await openapiTS(JSON.parse(JSON.stringify(document())) as never));
    const file = path.join(__dirname, '..', 'src', 'generated', `${name}.ts`);
    if (process.env.UPDATE_GENERATED === '1') writeFileSync(file, expected);
    expect(readFileSync(file, 'utf8')).toBe(expected);
  });
});
