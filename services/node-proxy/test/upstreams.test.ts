import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { nodeRpcAuthorization } from '@cloud/node-rpc-auth';
import { AnswerTooLargeError } from '../src/forwarding/answer-limit';
import { CONNECTIONS_PER_NODE, UpstreamError, Upstreams } from '../src/forwarding/upstreams';
import type { Family } from '../src/routing/interfaces';
import type { Route } from '../src/routing/route-table';
import { NodeErrorScan } from '../src/usage/node-error-scan';

// Upstreams.streamTo between a real caller and a real upstream, both plain node:http: what reaches
// the caller, back-pressure from a caller that does not read, a caller that goes away, and a node
// that refuses the proxy's login.

const KEY = Buffer.alloc(32, 7);
/** Above the 64 MB answers the back-pressure tests stream. */
const PLATFORM_ANSWER_BYTES = 100 * 1024 * 1024;
const NODE_ID = 'node-streaming';

async function listen(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** An upstream whose handler the test sets per case; it records the Authorization it was sent. */
function startUpstream() {
  const seen = { authorization: undefined as string | undefined, closedEarly: false, finished: false };
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server = createServer((req, res) => {
    seen.authorization = req.headers.authorization;
    res.on('finish', () => (seen.finished = true));
    res.on('close', () => {
      if (!res.writableFinished) seen.closedEarly = true;
    });
    handler(req, res);
  });
  return { server, seen, handle: (next: typeof handler) => (handler = next) };
}

/** An answer that never ends (chunked: no length), written as fast as the proxy takes it. */
function writeForever(res: ServerResponse, chunk: Buffer): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const pump = () => {
    while (res.write(chunk));
    res.once('drain', pump);
  };
  pump();
}

describe('Upstreams.streamTo', () => {
  const upstream = startUpstream();
  let upstreamPort: number;
  let upstreams: Upstreams;
  let proxy: Server;
  let proxyPort: number;
  let scan: NodeErrorScan | undefined;
  /** Hand the proxied calls' streamTo promises to the test in the order they arrive (wrapped, so awaiting one does not wait for it). */
  const waiting: ((call: { settled: Promise<number> }) => void)[] = [];
  const nextCall = () => new Promise<{ settled: Promise<number> }>((resolve) => waiting.push(resolve));

  /** The family of the node the test's proxy forwards to (each family has its own pool). */
  let family: Family = 'ethereum';
  /** The owner's answer bound of the node (`maxAnswerBytes`), or none: the platform's. */
  let ownerAnswerBytes: number | undefined;
  const route = () =>
    ({
      nodeId: `${NODE_ID}-${family}`,
      upstream: `http://127.0.0.1:${upstreamPort}`,
      interfaces: { family },
      rules: ownerAnswerBytes === undefined ? undefined : { maxAnswerBytes: ownerAnswerBytes },
    }) as Route;

  beforeAll(async () => {
    upstreamPort = await listen(upstream.server);
    upstreams = new Upstreams({ key: KEY, timeoutMs: 5_000, maxAnswerBytes: PLATFORM_ANSWER_BYTES });
    proxy = createServer((req, res) => {
      const settled = upstreams.streamTo(route(), { method: 'POST', path: '/', body: '{}', headers: { 'content-type': 'application/json' } }, res, scan);
      settled.catch(() => res.destroy());
      waiting.shift()?.({ settled });
    });
    proxyPort = await listen(proxy);
  });

  afterAll(async () => {
    await upstreams.close();
    proxy.close();
    upstream.server.closeAllConnections();
    upstream.server.close();
  });

  beforeEach(() => {
    upstream.seen.authorization = undefined;
    upstream.seen.closedEarly = false;
    upstream.seen.finished = false;
    scan = undefined;
    family = 'ethereum';
    ownerAnswerBytes = undefined;
  });

  /** Calls the proxy: the caller's response once its headers are in (its body not read), and what streamTo settles with. */
  async function call(): Promise<{ response: Promise<IncomingMessage>; settled: Promise<number> }> {
    const proxied = nextCall();
    const response = new Promise<IncomingMessage>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: proxyPort, method: 'POST', path: '/' }, resolve);
      req.on('error', reject);
      req.end();
    });
    response.catch(() => undefined); // a test that expects it to fail awaits it itself
    return { response, settled: (await proxied).settled };
  }

  async function readAll(res: IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  it("passes the node's status, type, length and body, logged in with the node's derived credentials, and resolves with the size", async () => {
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '36', 'x-node-secret': 'kept back' });
      res.end('{"jsonrpc":"2.0","id":1,"result":42}');
    });
    scan = new NodeErrorScan();
    const { response, settled } = await call();
    const res = await response;
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['content-length']).toBe('36');
    expect(res.headers['x-node-secret']).toBeUndefined();
    expect((await readAll(res)).toString()).toBe('{"jsonrpc":"2.0","id":1,"result":42}');
    await expect(settled).resolves.toBe(36);
    expect(scan.errors).toBe(0);
    expect(upstream.seen.authorization).toBe(nodeRpcAuthorization(KEY, `${NODE_ID}-ethereum`));
  });

  it('holds a large answer back while the caller does not read, then delivers all of it, byte for byte', async () => {
    const body = Buffer.alloc(64 * 1024 * 1024, 'x');
    body.write('{"id":1,"result":"', 0);
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }); // chunked: no length
      res.end(body);
    });
    const { response, settled } = await call();
    const res = await response;
    res.pause();
    // The caller reads nothing for a while: the node is held back (what the sockets on the way
    // buffer is far less than 64 MB), rather than its answer piling up in the proxy.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    let pending = true;
    void settled.finally(() => (pending = false));
    await new Promise((resolve) => setImmediate(resolve));
    expect(pending).toBe(true);
    expect(upstream.seen.finished).toBe(false);
    res.resume();
    const received = await readAll(res);
    expect(received.length).toBe(body.length);
    expect(received.equals(body)).toBe(true);
    await expect(settled).resolves.toBe(body.length);
  });

  it('aborts the call to the node when the caller goes away while its answer is held back', async () => {
    upstream.handle((_req, res) => writeForever(res, Buffer.alloc(64 * 1024, 'y')));
    const { response, settled } = await call();
    const res = await response;
    res.pause();
    await new Promise((resolve) => setTimeout(resolve, 200));
    (res.socket as Socket).destroy();
    const error = (await settled.catch((caught: unknown) => caught)) as UpstreamError;
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.status).toBe(502);
    await waitFor(() => upstream.seen.closedEarly);
  });

  it.each([
    ['bitcoin', 16],
    ['ethereum', 32],
  ] as const)('keeps at most %s-family node connections busy at once (%i) and queues the rest, each answered', async (nodeFamily, limit) => {
    expect(CONNECTIONS_PER_NODE[nodeFamily]).toBe(limit);
    family = nodeFamily;
    // The node holds every call until the test lets them go, so the calls in flight pile up.
    let inFlight = 0;
    let most = 0;
    let holding = true;
    const held: (() => void)[] = [];
    upstream.handle((_req, res) => {
      most = Math.max(most, ++inFlight);
      const answer = () => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' });
        res.end('{}');
      };
      if (holding) held.push(answer);
      else setTimeout(answer, 5); // still slow enough that the queued calls keep every connection busy
    });
    const calls = await Promise.all(Array.from({ length: limit + 24 }, () => call()));
    await waitFor(() => inFlight === limit);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(most).toBe(limit);
    holding = false;
    held.splice(0).forEach((answer) => answer());
    const statuses = await Promise.all(calls.map(async ({ response }) => (await response).statusCode));
    expect(statuses).toEqual(Array(limit + 24).fill(200));
    await Promise.all(calls.map(({ settled }) => expect(settled).resolves.toBe(2)));
    expect(most).toBe(limit);
  });

  it("answers 502 and passes nothing on when the node refuses the proxy's login", async () => {
    upstream.handle((_req, res) => {
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Basic realm="jsonrpc"' });
      res.end('node-internal detail');
    });
    const { response, settled } = await call();
    const error = (await settled.catch((caught: unknown) => caught)) as UpstreamError;
    await expect(response).rejects.toThrow(); // nothing was written: the test's proxy destroys the response on failure
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.status).toBe(502);
    expect(error.message).toBe("the node refused the proxy's credentials");
  });

  describe("the node's answer bound", () => {
    it("stops an answer whose announced length is over the owner's bound before anything reaches the caller, and says both sizes", async () => {
      ownerAnswerBytes = 4096;
      upstream.handle((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
        res.end(Buffer.alloc(5000, ' '));
      });
      const { response, settled } = await call();
      const error = (await settled.catch((caught: unknown) => caught)) as AnswerTooLargeError;
      expect(error).toBeInstanceOf(AnswerTooLargeError);
      expect(error).toMatchObject({ status: 502, code: 'AnswerTooLarge', size: 5000, limit: { bytes: 4096, setBy: 'accessRule' } });
      expect(error.message).toContain("this node's limit of 4096 bytes");
      await expect(response).rejects.toThrow(); // nothing was written: the test's proxy destroys the response on failure
    });

    it('passes an answer of exactly the bound', async () => {
      ownerAnswerBytes = 4096;
      upstream.handle((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
        res.end(Buffer.alloc(4096, ' '));
      });
      const { response, settled } = await call();
      expect((await readAll(await response)).length).toBe(4096);
      await expect(settled).resolves.toBe(4096);
    });

    it("cuts a chunked answer once it passes the platform's bound, and the call to the node with it", async () => {
      upstream.handle((_req, res) => writeForever(res, Buffer.alloc(1024 * 1024, 'z')));
      const { response, settled } = await call();
      const res = await response;
      const received = readAll(res).then(
        (body) => body.length,
        () => 'cut' as const,
      );
      const error = (await settled.catch((caught: unknown) => caught)) as AnswerTooLargeError;
      expect(error).toBeInstanceOf(AnswerTooLargeError);
      expect(error).toMatchObject({ size: undefined, limit: { bytes: PLATFORM_ANSWER_BYTES, setBy: 'platform' } });
      expect(error.message).toContain("the platform's limit");
      expect(await received).toBe('cut');
      await waitFor(() => upstream.seen.closedEarly);
    });
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
