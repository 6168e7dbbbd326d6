import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { consoleSettings, loadConsoleConfig } from '../src/config';
import { apiOrigins, createConsoleApp } from '../src/server';
import type { ConsoleServerSettings } from '../src/settings';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

let webRoot: string;
let settings: ConsoleServerSettings;

beforeAll(() => {
  // A stand-in for `vite build`'s output: the server's behaviour does not depend on the page.
  webRoot = mkdtempSync(path.join(os.tmpdir(), 'console-web-'));
  mkdirSync(path.join(webRoot, 'assets'));
  writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>Cloud Nodes</title><script type="module" src="/assets/app-1a2b.js"></script>');
  writeFileSync(path.join(webRoot, 'assets', 'app-1a2b.js'), 'console.log(1)');
  writeFileSync(path.join(webRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const proxyCaFile = path.join(webRoot, 'secret-operator-folder', 'proxy-cert.pem');
  mkdirSync(path.dirname(proxyCaFile));
  writeFileSync(proxyCaFile, PEM);
  settings = {
    accountsUrl: 'http://127.0.0.1:3001',
    nodesUrl: 'http://127.0.0.1:3002/',
    stakingUrl: 'https://api.example.com/staking',
    streamsUrl: 'https://streams.example.com',
    proxyCaFile,
  };
});

afterAll(() => rmSync(webRoot, { recursive: true, force: true }));

describe('the console server', () => {
  const app = () => createConsoleApp(settings, webRoot);

  it('serves the page under a CSP that admits only its own files and the four APIs', async () => {
    const response = await request(app()).get('/').expect(200);
    expect(response.text).toContain('<title>Cloud Nodes</title>');
    const csp = response.headers['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("connect-src 'self' http://127.0.0.1:3001 http://127.0.0.1:3002 https://api.example.com https://streams.example.com");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-powered-by']).toBeUndefined();
  });

  it('answers every other GET path with the page, which routes itself', async () => {
    for (const route of ['/nodes/node-1', '/verify?user=user-1&token=abc', '/validators/fuji/NodeID-1']) {
      const response = await request(app()).get(route).expect(200);
      expect(response.text).toContain('<title>Cloud Nodes</title>');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it("serves /config.json with the API addresses and where to get the proxy's certificate, never its path here, never cached", async () => {
    const response = await request(app()).get('/config.json').expect(200);
    expect(response.body).toEqual({
      accountsUrl: settings.accountsUrl,
      nodesUrl: settings.nodesUrl,
      stakingUrl: settings.stakingUrl,
      streamsUrl: settings.streamsUrl,
      proxyCaUrl: '/proxy-ca.pem',
    });
    expect(response.text).not.toContain('secret-operator-folder');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it("serves the proxy's certificate itself, read at each request, and a JSON 404 while it is not made", async () => {
    const response = await request(app()).get('/proxy-ca.pem').expect(200);
    expect(response.text).toBe(PEM);
    expect(response.headers['content-type']).toMatch(/^application\/x-pem-file/);
    const missing = await request(createConsoleApp({ ...settings, proxyCaFile: path.join(webRoot, 'none.pem') }, webRoot))
      .get('/proxy-ca.pem')
      .expect(404);
    expect(missing.body).toEqual({ code: 'NotFound', message: expect.stringContaining('certificate') });
    expect(missing.text).not.toContain(webRoot);
  });

  it('has no certificate to serve when the proxy has a trusted one', async () => {
    const trusted = createConsoleApp({ ...settings, proxyCaFile: null }, webRoot);
    expect((await request(trusted).get('/config.json').expect(200)).body.proxyCaUrl).toBeNull();
    // Any other GET is the page, which routes itself.
    expect((await request(trusted).get('/proxy-ca.pem').expect(200)).text).toContain('<title>Cloud Nodes</title>');
  });

  it('serves hashed assets as immutable, and a missing one as a JSON 404, not the page', async () => {
    const asset = await request(app()).get('/assets/app-1a2b.js').expect(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await request(app()).get('/assets/gone-0000.js').expect(404);
    expect(missing.body).toEqual({ code: 'NotFound', message: expect.any(String) });
    await request(app()).get('/favicon.svg').expect(200);
  });

  it('answers /healthz', async () => {
    expect((await request(app()).get('/healthz').expect(200)).body).toEqual({ status: 'ok' });
  });

  it('refuses anything but GET with a JSON 405', async () => {
    const response = await request(app()).post('/').send({ a: 1 }).expect(405);
    expect(response.body).toEqual({ code: 'MethodNotAllowed', message: 'the console serves GET requests only' });
  });

  it('refuses to start without a built page, saying how to build it', () => {
    expect(() => createConsoleApp(settings, path.join(webRoot, 'nowhere'))).toThrow(/not built.*npm run build -w apps\/console/);
  });

  it('lists each API origin once', () => {
    expect(apiOrigins({ accountsUrl: 'http://gw:8000', nodesUrl: 'http://gw:8000/', stakingUrl: 'http://gw:8000', streamsUrl: 'http://gw:8000/' })).toEqual([
      'http://gw:8000',
    ]);
  });
});

describe('the console configuration', () => {
  it('points the page at the contract addresses by default', () => {
    expect(consoleSettings(loadConsoleConfig({}))).toEqual({
      accountsUrl: 'http://127.0.0.1:3001',
      nodesUrl: 'http://127.0.0.1:3002',
      stakingUrl: 'http://127.0.0.1:3003',
      streamsUrl: 'http://127.0.0.1:3004',
      proxyCaFile: null,
    });
  });

  it('takes one gateway address for the four APIs, each overridable', () => {
    const config = loadConsoleConfig({ CONSOLE_API_URL: 'https://cloud.example.com', CONSOLE_STAKING_URL: 'https://staking.example.com' });
    expect(consoleSettings(config)).toMatchObject({
      accountsUrl: 'https://cloud.example.com',
      nodesUrl: 'https://cloud.example.com',
      stakingUrl: 'https://staking.example.com',
      streamsUrl: 'https://cloud.example.com',
    });
    expect(config.CONSOLE_PORT).toBe(3000);
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConsoleConfig({ CONSOLE_API_URL: 'not a url' })).toThrow(/CONSOLE_API_URL/);
    expect(() => loadConsoleConfig({ CONSOLE_PORT: '70000' })).toThrow(/CONSOLE_PORT/);
  });
});
