import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestPlatform, unusedPortUrl, type TestPlatform } from '../src/testing';

// npm start serves the web console beside the APIs (the console's build is this test task's
// dependency: turbo.json): its page, its settings, the e-mails' links to it, and CORS for it.

describe('the platform with its console', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ CORS_ORIGINS: 'https://other.example.com' });
  });
  afterAll(() => platform?.stop());

  it('serves the page at its own address under a strict CSP naming the four APIs', async () => {
    const response = await fetch(`${platform.urls.console}/nodes`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<div id="root"');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    for (const name of ['accounts', 'nodes', 'staking', 'streams']) expect(csp).toContain(new URL(platform.urls[name]!).origin);
  });

  it("tells the page where the APIs listen and serves the dev proxy's certificate, naming no path of this machine", async () => {
    const response = await fetch(`${platform.urls.console}/config.json`);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      accountsUrl: platform.urls.accounts,
      nodesUrl: platform.urls.nodes,
      stakingUrl: platform.urls.staking,
      streamsUrl: platform.urls.streams,
      proxyCaUrl: '/proxy-ca.pem',
    });
    expect(text).not.toContain(platform.dataDir);
    const certificate = await fetch(`${platform.urls.console}/proxy-ca.pem`);
    expect(certificate.status).toBe(200);
    expect(await certificate.text()).toBe(readFileSync(path.join(platform.dataDir, 'tls', 'proxy-cert.pem'), 'utf8'));
  });

  it("lets the console's origin call every API, beside the origins CORS_ORIGINS names", async () => {
    const origin = new URL(platform.urls.console!).origin;
    for (const name of ['accounts', 'nodes', 'staking', 'streams']) {
      for (const allowed of [origin, 'https://other.example.com']) {
        const preflight = await fetch(`${platform.urls[name]}/users/me`, {
          method: 'OPTIONS',
          headers: { origin: allowed, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
        });
        expect(preflight.headers.get('access-control-allow-origin')).toBe(allowed);
      }
      const stranger = await fetch(`${platform.urls[name]}/users/me`, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'GET' },
      });
      expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it("e-mails a verification link that opens the console's page", async () => {
    const email = `console-${Date.now()}@example.com`;
    const signUp = await fetch(`${platform.urls.accounts}/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'Secret-pass-123', displayName: 'Ada' }),
    });
    expect(signUp.status).toBe(201);
    const { userId, token, link } = await platform.verificationFor(email);
    const page = new URL(link);
    expect(page.origin + page.pathname).toBe(`${platform.urls.console}/verify`);
    expect(Object.fromEntries(page.searchParams)).toEqual({ user: userId, token });
    expect((await fetch(link)).status).toBe(200);
  });
});

describe('the console while the platform starts', () => {
  it('answers a browser with a page that says so and reloads itself, and a program with JSON, both 503', async () => {
    const consoleUrl = await unusedPortUrl();
    const starting = startTestPlatform({ CONSOLE_PORT: new URL(consoleUrl).port });
    let page: Response | undefined;
    try {
      // The console listens first (the e-mails' links need its address), the APIs after it.
      while (!page) page = await fetch(consoleUrl, { headers: { accept: 'text/html' } }).catch(() => undefined);
      expect(page.status).toBe(503);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('retry-after')).toBe('2');
      const html = await page.text();
      expect(html).toContain('<meta http-equiv="refresh" content="2">');
      expect(html).toContain('The platform is starting');
      const api = await fetch(`${consoleUrl}/config.json`);
      expect([api.status, await api.json()]).toEqual([503, { code: 'ServiceUnavailable', message: 'the console is not available: the platform is starting' }]);
    } finally {
      const platform = await starting;
      // Once started, the same address serves the console.
      expect((await fetch(consoleUrl, { headers: { accept: 'text/html' } })).status).toBe(200);
      await platform.stop();
    }
  });
});
