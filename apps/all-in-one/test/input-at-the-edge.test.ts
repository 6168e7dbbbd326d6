import { accountsOpenApiDocument } from '@cloud/accounts';
import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { nodesOpenApiDocument } from '@cloud/nodes';
import { stakingOpenApiDocument } from '@cloud/staking';
import { streamsOpenApiDocument } from '@cloud/streams';
import { startTestPlatform, type TestPlatform } from '../src/testing';
import { casesOf, type Case, type Document } from './input-table';

// Input checked at the edge (docs/decisions/014-input-at-the-edge.md): every route of the four
// OpenAPI documents, with a bad value in each path parameter, query parameter and string body
// field, answers a JSON 4xx, and a well-formed baseline is not refused as input. On PGlite, and on
// PostgreSQL when DATABASE_URL is set (a fresh database for this file).

const DOCUMENTS = {
  accounts: accountsOpenApiDocument() as unknown as Document,
  nodes: nodesOpenApiDocument() as unknown as Document,
  staking: stakingOpenApiDocument() as unknown as Document,
  streams: streamsOpenApiDocument() as unknown as Document,
};
// The first image of the schema's list need not be offered here; anvil's always is. A pool names
// at least one node: a well-formed one the platform does not know. A stream's URL is a local
// receiver's (the embedded platform allows loopback targets), so only its node is refused.
const UNKNOWN_NODE = 'node-00000000-0000-4000-8000-000000000000';
const BODY_OVERRIDES = {
  'POST /users/me/nodes': { image: 'eth' },
  'POST /users/me/pools': { members: [UNKNOWN_NODE] },
  'PATCH /users/me/pools/{id}': { members: [UNKNOWN_NODE] },
  'POST /users/me/streams': { nodeId: UNKNOWN_NODE, url: 'http://127.0.0.1:9/hooks' },
  'PATCH /users/me/streams/{streamId}': { url: 'http://127.0.0.1:9/hooks' },
};
// Baselines the input rules pass and the domain refuses as input, with what it says: a pool of a
// node the caller does not have (well-formed, so the rules let it through to the lookup), and a stream of one.
const DOMAIN_REFUSED_BASELINES: Record<string, string> = {
  'POST /users/me/pools': `body.members: no node ${UNKNOWN_NODE} of yours`,
  'POST /users/me/streams': `body.nodeId: no node ${UNKNOWN_NODE} of yours`,
};
const CASES = Object.entries(DOCUMENTS).flatMap(([service, document]) => casesOf(document, BODY_OVERRIDES).map((item) => ({ ...item, service })));
const REQUEST_TIMEOUT_MS = 15_000;
const PASSWORD = 'correct horse 42';

let database: TestDatabase | undefined;
let platform: TestPlatform;
const headersOf: Record<string, Record<string, string>> = {};

async function call(url: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const text = await res.text();
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return { status: res.status, body: JSON.parse(text) as Record<string, unknown> };
}

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

beforeAll(async () => {
  if (process.env.DATABASE_URL) database = await createTestDatabase('edge');
  platform = await startTestPlatform(database?.url ? { DATABASE_URL: database.url } : {});
  const accounts = platform.urls.accounts!;
  const email = 'edge@example.com';
  expect((await call(`${accounts}/users`, json({ email, password: PASSWORD, displayName: 'Edge' }))).status).toBe(201);
  const { userId, token } = await platform.verificationFor(email);
  expect((await call(`${accounts}/users/${userId}/token/${token}`, { method: 'PUT' })).status).toBe(200);
  const basic = `Basic ${Buffer.from(`${email}:${PASSWORD}`).toString('base64')}`;
  const { accessToken } = (await call(`${accounts}/auth`, { method: 'POST', headers: { authorization: basic } })).body as { accessToken: string };
  const key = (await call(`${accounts}/users/me/client-keys`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` } })).body;
  const tokens = (await call(`${accounts}/auth/token`, json({ grantType: 'clientCredentials', clientId: key.clientId, clientSecret: key.clientSecret }))).body;
  headersOf.accountToken = { authorization: `Bearer ${accessToken}` };
  headersOf.clientToken = { authorization: `Bearer ${String(tokens.accessToken)}` };
  headersOf.basic = { authorization: basic };
});

afterAll(async () => {
  await platform?.stop();
  await database?.destroy();
});

it('covers every route of the four documents, as served', async () => {
  for (const [service, document] of Object.entries(DOCUMENTS)) {
    expect((await call(`${platform.urls[service]}/openapi.json`)).body).toEqual(JSON.parse(JSON.stringify(document)));
    const routes = Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    for (const route of routes) expect(CASES.some((item) => item.name.startsWith(`${route} baseline`))).toBe(true);
  }
  // Each kind of bad value reaches some route, so a table that silently shrank would show.
  for (const kind of ['a NUL character', 'a lone surrogate', 'year 0000', 'a malformed id']) {
    expect(CASES.filter((item) => item.name.endsWith(`= ${kind}`)).length).toBeGreaterThan(0);
  }
});

it.each(CASES.map((item) => [`${item.service}: ${item.name}`, item] as const))('%s', async (_name, item: Case & { service: string }) => {
  const { status, body } = await call(`${platform.urls[item.service]}${item.url}`, {
    method: item.method.toUpperCase(),
    headers: {
      ...(item.scheme ? headersOf[item.scheme] : {}),
      ...(item.authorization ? { authorization: item.authorization } : {}),
      ...(item.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(item.body === undefined ? {} : { body: JSON.stringify(item.body) }),
  });
  expect(status).toBeLessThan(500);
  if (status >= 400) expect(body).toEqual({ code: expect.any(String), message: expect.any(String) });
  if (item.expect === 'InvalidInput') {
    expect({ status, code: body.code }).toEqual({ status: 400, code: 'InvalidInput' });
    if (item.field) expect(body.message).toContain(`${item.field}:`);
  }
  // A well-formed baseline passes the input rules (an unknown, well-shaped id stays 404); the
  // domain may still refuse what the input names (a reset link's unknown token: InvalidResetToken).
  const refusedByDomain = DOMAIN_REFUSED_BASELINES[item.name.replace(/ baseline$/, '')];
  if (item.expect === 'baseline' && refusedByDomain)
    expect({ status, body }).toEqual({ status: 400, body: { code: 'InvalidInput', message: refusedByDomain } });
  else if (item.expect === 'baseline') expect({ status, code: body.code }).not.toEqual({ status: 400, code: 'InvalidInput' });
});

it('records the call of a refused node id as an event with its 400', async () => {
  const nodes = platform.urls.nodes!;
  const requestId = 'edge-nul-node-id';
  expect((await call(`${nodes}/users/me/nodes/node-%00`, { headers: { ...headersOf.clientToken, 'x-request-id': requestId } })).status).toBe(400);
  const deadline = Date.now() + 20_000;
  let events: Record<string, unknown>[] = [];
  const refused = (event: Record<string, unknown>) => (event.serviceData as Record<string, unknown>).requestId === requestId;
  while (!events.some(refused) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    events = (await call(`${platform.urls.accounts}/users/me/events?service=cloud-nodes&limit=500`, { headers: headersOf.accountToken }))
      .body as unknown as Record<string, unknown>[];
  }
  // The event is stored, without the id that no text column can hold.
  expect(events.find(refused)).toMatchObject({ input: { method: 'GET', route: '/users/me/nodes/:id' }, output: { httpStatusCode: 400 } });
  expect((events.find(refused)!.input as Record<string, unknown>).resourceId).toBeUndefined();
});
