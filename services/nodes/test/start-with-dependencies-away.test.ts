import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { BrokerLink } from '@cloud/bus/testing';
import { clientTokens } from '@cloud/accounts/testing';
import { createLogger } from '@cloud/logging';
import { bearer, startTestPlatform, waitUntil, type TestPlatform } from '../src/testing';
import { createNodesService, loadNodesConfig, type NodesService } from '../src';

// Issue 29, items 5 and 9: a nodes instance that starts while the accounts service or the broker
// is away. The accounts service listens on a real port here, as the nodes service reads its keys
// (and, without the broker, its revocations) over HTTP.

let platform: TestPlatform;
let accountsServer: Server | undefined;
const services: NodesService[] = [];
const links: BrokerLink[] = [];

function listenAccounts(port = 0): Promise<string> {
  const server = createServer(platform.accounts.service.app);
  accountsServer = server;
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** A nodes instance as `npm start` makes it (keys read from ACCOUNTS_URL), not waited for. */
async function startNodes(env: Record<string, string>): Promise<{ service: NodesService; http: ReturnType<typeof request> }> {
  const config = loadNodesConfig({
    DATA_DIR: platform.dataDir,
    LOG_LEVEL: 'silent',
    ...(platform.databaseUrl ? { DATABASE_URL: platform.databaseUrl } : {}),
    ...platform.busEnv,
    ...env,
  });
  const service = await createNodesService(config, { clock: platform.clock, logger: createLogger({ service: 'test', level: 'silent' }) });
  services.push(service);
  return { service, http: request(service.app) };
}

beforeEach(async () => {
  platform = await startTestPlatform({ rabbitmq: true });
});
afterEach(async () => {
  for (const service of services.splice(0)) await service.close();
  for (const link of links.splice(0)) await link.close();
  await new Promise<void>((resolve) => (accountsServer ? accountsServer.close(() => resolve()) : resolve()));
  accountsServer = undefined;
  await platform.close();
});

describe('a nodes instance started while the accounts service is away', () => {
  it('answers valid tokens 503 with Retry-After (never 401), is unready on the keys, and serves as soon as the accounts service is back', async () => {
    const user = await platform.user();
    // A port nothing listens on yet: the accounts service is down.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const nodes = await startNodes({ ACCOUNTS_URL: `http://127.0.0.1:${port}` });

    const refused = await nodes.http.get('/users/me/nodes').set(bearer(user.clientToken));
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({
      code: 'KeysUnavailable',
      message: 'the token signing keys cannot be read from the accounts service yet; try again shortly',
    });
    expect(refused.headers['retry-after']).toBe('1');
    const unready = await nodes.http.get('/readyz');
    expect(unready.status).toBe(503);
    expect((unready.body as { message: string }).message).toContain('token signing keys');

    await listenAccounts(port);
    // Retried within a second or so, not after the 30 s refresh interval (generous margin for a busy machine).
    await waitUntil('the instance is ready', async () => (await nodes.http.get('/readyz')).status === 200, 15_000, 50);
    const answered = await nodes.http.get('/users/me/nodes').set(bearer(user.clientToken));
    expect(answered.status).toBe(200);
    expect(answered.body).toEqual([]);
  });
});

describe('a nodes instance started while the broker is away', () => {
  it('serves degraded from the start, enforcing revocations made before; consumers attach and its messages go out once the broker is back', async () => {
    const accountsUrl = await listenAccounts();
    const user = await platform.user();
    const revoked = await clientTokens(platform.accounts, user.accountToken);
    await platform.accounts.http.delete(`/users/me/client-keys/${revoked.clientId}`).set(bearer(user.accountToken)).expect(204);
    const later = await clientTokens(platform.accounts, user.accountToken);
    const link = await BrokerLink.open();
    links.push(link);
    await link.cut();

    const nodes = await startNodes({ AMQP_URL: link.url, ACCOUNTS_URL: accountsUrl });
    await waitUntil('the instance is ready', async () => (await nodes.http.get('/readyz')).status === 200, 15_000, 50);
    expect((await nodes.http.get('/readyz')).body).toEqual({ status: 'degraded' });
    expect((await nodes.http.get('/healthz')).body).toMatchObject({ dependencies: { 'message bus': 'down', 'token revocations': 'up' } });
    const listed = await nodes.http.get('/users/me/nodes').set(bearer(user.clientToken)).set('x-request-id', 'during-the-outage');
    expect(listed.status).toBe(200);
    const refused = await nodes.http.get('/users/me/nodes').set(bearer(revoked.accessToken));
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ code: 'Unauthorized', message: 'token has been revoked' });
    // The call's event waits in the outbox.
    const waiting = await nodes.service.db('outbox').count({ n: '*' }).first();
    expect(Number(waiting?.n)).toBeGreaterThan(0);

    await link.restore();
    await waitUntil('the bus is back', async () => (await nodes.http.get('/readyz')).body.status === 'ok', 30_000, 100);
    // The outbox was published: the call made during the outage reaches the accounts service's events.
    await waitUntil(
      'the call event is stored',
      async () => {
        const events = await platform.accounts.http.get('/users/me/events').set(bearer(user.accountToken)).expect(200);
        return (events.body as { serviceData?: { requestId?: string } }[]).some((event) => event.serviceData?.requestId === 'during-the-outage');
      },
      30_000,
      100,
    );
    // The revocations consumer attached: a key deleted now is refused by the instance.
    await platform.accounts.http.delete(`/users/me/client-keys/${later.clientId}`).set(bearer(user.accountToken)).expect(204);
    await waitUntil(
      'the new revocation is enforced',
      async () => (await nodes.http.get('/users/me/nodes').set(bearer(later.accessToken))).status === 401,
      30_000,
      100,
    );
  });
});
