import { createLogger } from '@cloud/logging';
import { serveHttp, type RunningServer } from '../src';

// serveHttp's close: requests in flight finish, new ones are refused with 503 (issue 29, item 10).

const logger = createLogger({ service: 'serve-test', level: 'silent' });

describe('serveHttp close', () => {
  let server: RunningServer;
  let entered = 0;
  let release: () => void;
  let gate: Promise<void>;

  beforeEach(async () => {
    entered = 0;
    gate = new Promise<void>((resolve) => (release = resolve));
    server = await serveHttp(
      (request, response) => {
        entered += 1;
        const answer = () => response.writeHead(200, { 'content-type': 'text/plain' }).end('done');
        if (request.url === '/slow') void gate.then(answer);
        else answer();
      },
      { port: 0, host: '127.0.0.1', logger, name: 'test' },
    );
  });
  // Each test closes its server.
  afterEach(() => release());

  const waitFor = async (condition: () => boolean) => {
    while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  it('answers the requests in flight, and new ones 503 with Retry-After and Connection: close, then stops listening', async () => {
    const slow = fetch(`${server.url}/slow`);
    await waitFor(() => entered === 1);
    let closed = false;
    const closing = server.close(60_000).then(() => (closed = true));

    const refused = await fetch(`${server.url}/fast`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('connection')).toBe('close');
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({ code: 'ServiceUnavailable', message: 'this server is shutting down; try again' });
    expect(entered).toBe(1);
    expect(closed).toBe(false);

    release();
    const answered = await slow;
    expect(answered.status).toBe(200);
    expect(answered.headers.get('connection')).toBe('close');
    expect(await answered.text()).toBe('done');
    await closing;
    await expect(fetch(`${server.url}/fast`)).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });
  });

  it('closes the connections of requests still unanswered after the grace period', async () => {
    const slow = fetch(`${server.url}/slow`).then(
      () => 'answered',
      () => 'connection closed',
    );
    await waitFor(() => entered === 1);
    await server.close(100);
    expect(await slow).toBe('connection closed');
  });
});
