import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AnyBusMessage } from '@cloud/bus';
import type { NodeProxy } from '../src';
import { callProxy } from './client';
import { startProxyPlatform, waitUntil, type CreatedNode, type ProxyPlatform, type TestUser } from './harness';

/** An "anvil" that reports a version and then never answers: a node that stays provisioning. */
function silentAnvil(dir: string): string {
  const file = path.join(dir, 'silent-anvil.sh');
  writeFileSync(file, '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "anvil 0.0.0-silent"; exit 0; fi\nexec sleep 3600\n');
  chmodSync(file, 0o755);
  return file;
}

describe('the proxy following node changes, with the management interface, limits and usage', () => {
  let platform: ProxyPlatform;
  let proxy: NodeProxy;
  let user: TestUser;
  let node: CreatedNode;
  const usage: AnyBusMessage[] = [];

  beforeAll(async () => {
    platform = await startProxyPlatform({ nodesEnv: { ANVIL_PATH: silentAnvil(process.env.TMPDIR ?? '/tmp') } });
    await platform.bus.subscribe({ name: 'usage-test', bindings: ['node.usage'], handle: async (messages) => void usage.push(...messages) });
    proxy = await platform.startProxy({ PROXY_RATE_PER_SECOND: '1', PROXY_RATE_BURST: '40', PROXY_USAGE_INTERVAL_MS: '3600000' });
    user = await platform.user();
    node = await platform.createNode(user, { image: 'ltc' });
  }, 120_000);
  afterAll(() => platform?.close());

  const getBlockCount = (credentials = `${node.nodeUser}:${node.nodePass}`, target = node) =>
    callProxy(proxy, target.image === 'eth' ? 'eth' : 'ltc', {
      host: target.address,
      auth: credentials,
      body: { id: 1, method: target.image === 'eth' ? 'eth_blockNumber' : 'getblockcount', params: [] },
    });

  it('tells the node health on the management port, and serves its log', async () => {
    const management = (request: { path: string; body?: unknown; method?: string }) =>
      callProxy(proxy, 'management', { host: node.address, auth: `${node.nodeUser}:${node.nodePass}`, ...request });
    // The platform runs LOCAL_NETWORKS=dev: the node is on a private dev chain, and /status says so.
    expect(await management({ path: '/status' })).toMatchObject({ status: 200, body: 'healthy', headers: { 'x-node-dev-chain': 'true' } });
    const lines = await management({ path: '/logs?lines=3' });
    expect(lines.status).toBe(200);
    expect(lines.body).toEqual([expect.any(String), expect.any(String), expect.any(String)]);
    const fromBody = await management({ path: '/logs', method: 'GET', body: { lines: 2 } });
    expect(fromBody).toMatchObject({ status: 200, body: [expect.any(String), expect.any(String)] });
    const whole = (await management({ path: '/logs' })).body as string[];
    expect(whole.length).toBeGreaterThan(3);
    expect(whole.some((line) => line.includes('Litecoin Core'))).toBe(true);
    expect(await management({ path: '/logs?lines=0' })).toMatchObject({ status: 400, body: { code: 'InvalidInput' } });
    expect(await management({ path: '/status', method: 'POST', body: {} })).toMatchObject({ status: 405, body: { code: 'MethodNotAllowed' } });
    expect(await management({ path: '/other' })).toMatchObject({ status: 404, body: { code: 'NotFound' } });
    expect(await callProxy(proxy, 'management', { host: node.address, path: '/status' })).toMatchObject({ status: 401 });
  });

  it('over HTTPS, refuses a call whose TLS name is another node than its Host (421)', async () => {
    const tls = await platform.startProxy({ PROXY_TLS: 'on' });
    const credentials = `${node.nodeUser}:${node.nodePass}`;
    const call = { host: node.address, auth: credentials, body: { id: 1, method: 'getblockcount' } };
    expect(await callProxy(tls, 'ltc', call)).toMatchObject({ status: 200, body: { result: expect.any(Number) } });
    const misdirected = await callProxy(tls, 'ltc', { ...call, servername: `node-other.nodes.localhost` });
    expect(misdirected).toMatchObject({ status: 421, body: { code: 'MisdirectedRequest' } });
  });

  it('answers 503 for a node still being provisioned, and its status says so', async () => {
    const pending = await platform.createNode(user, { image: 'eth' }, false);
    const call = await getBlockCount(`${pending.nodeUser}:${pending.nodePass}`, pending);
    expect(call).toMatchObject({ status: 503, body: { code: 'NodeNotReady' }, headers: { 'retry-after': '5' } });
    const status = await callProxy(proxy, 'management', { host: pending.address, path: '/status', auth: `${pending.nodeUser}:${pending.nodePass}` });
    expect(status).toMatchObject({ status: 200, body: 'provisioning' });
  });

  it('stops taking rotated credentials within a second, and takes the new ones', async () => {
    const old = `${node.nodeUser}:${node.nodePass}`;
    expect(await getBlockCount(old)).toMatchObject({ status: 200 });
    const rotated = await platform.rotateCredentials(user, node.id);
    const fresh = `${rotated.nodeUser}:${rotated.nodePass}`;
    const took = await waitUntil('the old credentials to stop working', async () => (await getBlockCount(old)).status === 401, 1000);
    expect(took).toBeLessThan(1000);
    expect(await getBlockCount(fresh)).toMatchObject({ status: 200 });
    node = { ...node, nodeUser: rotated.nodeUser, nodePass: rotated.nodePass };
  });

  it('limits each node to its rate with 429 and Retry-After', async () => {
    const answers = await Promise.all(Array.from({ length: 60 }, () => getBlockCount()));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(15);
    expect(answers.find((answer) => answer.status === 429)).toMatchObject({
      body: { code: 'TooManyRequests' },
      headers: { 'retry-after': expect.stringMatching(/^\d+$/) },
    });
  });

  it('publishes usage per node and user, and exposes metrics without node ids', async () => {
    await proxy.context.usage.flush();
    await waitUntil('a usage message', () => usage.length > 0);
    const counted = usage.flatMap((message) => (message.kind === 'node.usage' ? message.payload.nodes : []));
    const mine = counted.find((entry) => entry.nodeId === node.id);
    expect(mine).toMatchObject({ userId: user.id, requests: expect.any(Number), bytesOut: expect.any(Number) });
    expect(mine!.requests).toBeGreaterThanOrEqual(10);
    const metrics = await (await fetch(`${proxy.adminUrl}/metrics`)).text();
    expect(metrics).toMatch(/node_proxy_requests_total\{listener="ltc",outcome="forwarded"\} \d+/);
    expect(metrics).toMatch(/node_proxy_requests_total\{listener="ltc",outcome="rate_limited"\} \d+/);
    expect(metrics).not.toContain(node.id);
    expect((await fetch(`${proxy.adminUrl}/readyz`)).status).toBe(200);
  });

  it('answers 404 once the node is deleted', async () => {
    await platform.nodes.http.delete(`/users/me/nodes/${node.id}`).set('authorization', `Bearer ${user.clientToken}`).expect(200);
    await waitUntil('the node to be gone at the proxy', async () => (await getBlockCount()).status === 404, 2000);
    expect(await getBlockCount()).toMatchObject({ status: 404, body: { code: 'NotFound' } });
  });
});
