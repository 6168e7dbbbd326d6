import { once } from 'node:events';
import { createServer as createHttpServer, request as httpRequest, type RequestListener } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { acceptLoopbackHttp, isLoopback } from '../src/server/loopback-http';
import { loadProxyCertificate } from '../src/tls/proxy-certificate';

const handler: RequestListener = (req, res) => res.end(`${'encrypted' in req.socket ? 'tls' : 'plain'} ${req.url}`);

async function get(scheme: 'http' | 'https', port: number, ca?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = (scheme === 'https' ? httpsRequest : httpRequest)({ host: '127.0.0.1', port, path: '/x', ...(ca ? { ca } : {}) }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('plain HTTP beside TLS on one port', () => {
  let dataDir: string;
  let cert: { cert: string; key: string };
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'loopback-http-'));
    cert = await loadProxyCertificate({ DATA_DIR: dataDir, NODE_DOMAIN: 'nodes.localhost' });
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  async function serve(admits?: (address: string | undefined) => boolean) {
    const tls = createHttpsServer(cert, handler);
    const plain = createHttpServer(handler);
    acceptLoopbackHttp(tls, plain, admits);
    tls.listen(0, '127.0.0.1');
    await once(tls, 'listening');
    return { port: (tls.address() as AddressInfo).port, close: () => new Promise((resolve) => tls.close(resolve)) };
  }

  it('answers TLS, verified against 127.0.0.1 in the dev certificate, and plain HTTP from loopback', async () => {
    const server = await serve();
    try {
      expect(await get('https', server.port, cert.cert)).toEqual({ status: 200, text: 'tls /x' });
      expect(await get('http', server.port)).toEqual({ status: 200, text: 'plain /x' });
    } finally {
      await server.close();
    }
  });

  it('tells a plain caller from another machine to use https, with a JSON error, and still serves TLS', async () => {
    const server = await serve(() => false);
    try {
      const answer = await get('http', server.port);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toEqual({ code: 'HttpsRequired', message: expect.stringContaining('https://') });
      expect(await get('https', server.port, cert.cert)).toEqual({ status: 200, text: 'tls /x' });
    } finally {
      await server.close();
    }
  });

  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['2001:db8::1', false],
    [undefined, false],
  ])('takes %s as loopback: %s', (address, loopback) => {
    expect(isLoopback(address)).toBe(loopback);
  });
});
