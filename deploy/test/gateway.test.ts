import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadCompose } from './support/compose';
import { kubectlKustomize, KUSTOMIZE_DIR, named, type K8sObject } from './support/kubernetes';
import { declaredRoutes, samplePaths, type ApiService } from './support/openapi';
import { GATEWAY_CONFIG, ingressServiceFor, nginxLocationFor, readGatewayConfig, type IngressPath } from './support/routing';

const routes = declaredRoutes();
const requests = routes.flatMap((route) => samplePaths(route.template).map((requestPath) => ({ ...route, requestPath })));

// Where compose runs each API (staking and streams share the nodes container's network) and the console.
const COMPOSE_ADDRESS: Record<ApiService | 'console', string> = {
  accounts: 'accounts:3001',
  nodes: 'nodes:3002',
  staking: 'nodes:3003',
  streams: 'nodes:3004',
  console: 'console:3000',
};

// Paths of the console's page (its client routes, what vite build writes, /config.json): every path
// no API claims goes to the console, at `/` of the gateway and of the Ingress.
const CONSOLE_PATHS = [
  '/',
  '/nodes',
  '/nodes/node-1',
  '/verify',
  '/reset-password',
  '/keys',
  '/validators/v-1',
  '/config.json',
  '/assets/index-1a2b.js',
  '/favicon.svg',
  '/nothing-here',
];
// The near misses: API paths next to the console's, which stay the API's.
const API_NEIGHBOURS: [string, ApiService][] = [
  ['/users/me/nodes', 'nodes'],
  ['/users/me/nodes/node-1', 'nodes'],
  ['/users/me', 'accounts'],
  ['/chains', 'nodes'],
  ['/staking/validators', 'staking'],
  ['/users/me/streams', 'streams'],
  ['/users/me/streams/stream-1', 'streams'],
  ['/users/me/streamsx', 'accounts'],
];

describe('the routes the OpenAPI documents declare', () => {
  it('are read from all four services', () => {
    expect(new Set(routes.map((route) => route.service))).toEqual(new Set(['accounts', 'nodes', 'staking', 'streams']));
    expect(routes.length).toBeGreaterThanOrEqual(20);
  });
});

describe('the gateway (deploy/gateway/nginx.conf)', () => {
  const config = readGatewayConfig();

  it('points each upstream at the address docker-compose.yml runs that service at', () => {
    expect(config.upstreams).toEqual(COMPOSE_ADDRESS);
    const compose = loadCompose();
    expect(compose.services.staking?.network_mode).toBe('service:nodes');
    expect(compose.services.streams?.network_mode).toBe('service:nodes');
    expect(compose.services.nodes?.environment?.NODES_PORT).toBe('3002');
    expect(compose.services.staking?.environment?.STAKING_PORT).toBe('3003');
    expect(compose.services.streams?.environment?.STREAMS_PORT).toBe('3004');
    expect(compose.services.accounts?.environment?.ACCOUNTS_PORT).toBe('3001');
    expect(compose.services.console?.environment?.CONSOLE_PORT).toBe('3000');
  });

  it.each(requests.map((r) => [`${r.method} ${r.requestPath}`, r.service, r.requestPath] as const))('routes %s to %s', (_name, service, requestPath) => {
    expect(nginxLocationFor(config, requestPath)?.upstream).toBe(service);
  });

  it('serves each OpenAPI document at /openapi/<service>.json and answers 404 for other documents', () => {
    for (const service of ['accounts', 'nodes', 'staking', 'streams']) {
      expect(nginxLocationFor(config, `/openapi/${service}.json`)?.upstream).toBe(service);
    }
    expect(nginxLocationFor(config, '/openapi/other.json')).toMatchObject({ path: '/openapi/' });
    expect(nginxLocationFor(config, '/openapi/other.json')?.upstream).toBeUndefined();
  });

  it.each(CONSOLE_PATHS)('routes %s to the console', (requestPath) => {
    expect(nginxLocationFor(config, requestPath)).toMatchObject({ path: '/', upstream: 'console' });
  });

  it.each(API_NEIGHBOURS)('still routes %s to %s', (requestPath, service) => {
    expect(nginxLocationFor(config, requestPath)?.upstream).toBe(service);
  });
});

describe('the Ingress (deploy/kubernetes/base/ingress.yaml)', () => {
  let paths: IngressPath[];
  beforeAll(() => {
    const ingress: K8sObject = named(kubectlKustomize(path.join(KUSTOMIZE_DIR, 'base')), 'Ingress', 'api');
    paths = ingress.spec.rules.flatMap((rule: K8sObject) =>
      rule.http.paths.map((p: K8sObject) => ({ path: p.path, pathType: p.pathType, service: p.backend.service.name })),
    );
  });

  it.each(requests.map((r) => [`${r.method} ${r.requestPath}`, r.service, r.requestPath] as const))('routes %s to %s', (_name, service, requestPath) => {
    expect(ingressServiceFor(paths, requestPath)).toBe(service);
  });

  it.each(CONSOLE_PATHS)('routes %s to the console', (requestPath) => {
    expect(ingressServiceFor(paths, requestPath)).toBe('console');
  });

  it.each(API_NEIGHBOURS)('still routes %s to %s', (requestPath, service) => {
    expect(ingressServiceFor(paths, requestPath)).toBe(service);
  });
});

// nginx itself, when it is installed (apt-get install nginx-light): the same config, its upstreams
// pointed at stand-ins that say which service they are, and every declared route sent through it.
// nginx itself runs the config (apt-get install nginx-light; .ci/run installs it).
describe('the gateway, run by nginx', () => {
  const standIns: http.Server[] = [];
  let nginx: ChildProcess | undefined;
  let dir: string;
  let base: string;

  const listen = (server: http.Server) =>
    new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cloud-gateway-'));
    let conf = readFileSync(GATEWAY_CONFIG, 'utf8');
    for (const [service, address] of Object.entries(COMPOSE_ADDRESS)) {
      const server = http.createServer((req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({ service, method: req.method, url: req.url, requestId: req.headers['x-request-id'], forwardedFor: req.headers['x-forwarded-for'] }),
        );
      });
      standIns.push(server);
      conf = conf.replace(new RegExp(`(upstream ${service} \\{\\s*server )${address}`), `$1127.0.0.1:${await listen(server)}`);
    }
    const probe = http.createServer();
    const port = await listen(probe);
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    conf = conf.replace(/listen 8080;/, `listen 127.0.0.1:${port};`);
    writeFileSync(path.join(dir, 'gateway.conf'), conf);
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `${kind}_temp_path ${dir}/${kind};`).join(' ');
    writeFileSync(
      path.join(dir, 'nginx.conf'),
      `daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log; events {} http { access_log off; ${temp} include ${dir}/gateway.conf; }`,
    );
    nginx = spawn('nginx', ['-c', path.join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore' });
    base = `http://127.0.0.1:${port}`;
    for (let attempt = 0; attempt < 50; attempt += 1) {
      if (
        await fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`nginx did not start: ${readFileSync(path.join(dir, 'error.log'), 'utf8')}`);
  });

  afterAll(async () => {
    nginx?.kill('SIGTERM');
    await Promise.all(standIns.map((server) => new Promise((resolve) => server.close(resolve))));
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes every declared route, method and path unchanged, to its service with a request id', async () => {
    for (const { method, requestPath, service } of requests) {
      const response = await fetch(`${base}${requestPath}`, { method });
      const { forwardedFor, ...body } = (await response.json()) as { service: string; method: string; url: string; requestId?: string; forwardedFor?: string };
      expect(forwardedFor).toBe('127.0.0.1');
      expect({ route: `${method} ${requestPath}`, ...body, requestId: Boolean(body.requestId) }).toEqual({
        route: `${method} ${requestPath}`,
        service,
        method,
        url: requestPath,
        requestId: true,
      });
    }
  });

  it("replaces a client's own X-Forwarded-For with its address, which the services count limits by", async () => {
    const seen = (await (await fetch(`${base}/auth`, { method: 'POST', headers: { 'x-forwarded-for': '203.0.113.9' } })).json()) as { forwardedFor: string };
    expect(seen.forwardedFor).toBe('127.0.0.1');
  });

  it("sends the console's paths to the console, the APIs' next to them still to the APIs", async () => {
    for (const requestPath of CONSOLE_PATHS) {
      const body = (await (await fetch(`${base}${requestPath}`)).json()) as { service: string; url: string };
      expect({ requestPath, ...body }).toMatchObject({ requestPath, service: 'console', url: requestPath });
    }
    for (const [requestPath, service] of API_NEIGHBOURS) {
      const body = (await (await fetch(`${base}${requestPath}`)).json()) as { service: string; url: string };
      expect({ requestPath, ...body }).toMatchObject({ requestPath, service, url: requestPath });
    }
  });

  it("keeps the caller's request id, and answers unknown OpenAPI documents and the known ones", async () => {
    const kept = (await (await fetch(`${base}/chains`, { headers: { 'x-request-id': 'req-1' } })).json()) as { requestId: string };
    expect(kept.requestId).toBe('req-1');
    const missing = await fetch(`${base}/openapi/other.json`);
    expect([missing.status, await missing.json()]).toEqual([404, { code: 'NotFound', message: 'no API at this path' }]);
    const document = (await (await fetch(`${base}/openapi/staking.json`)).json()) as { service: string; url: string };
    expect(document).toMatchObject({ service: 'staking', url: '/openapi.json' });
  });
});
