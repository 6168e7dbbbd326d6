import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ACCOUNTS_SHUTDOWN } from '../src';
import { PASSWORD, uniqueEmail, waitUntil } from '../src/testing';
import { startSmtpServer, type TestSmtpServer } from './smtp-server';

/** Longer than the 5 s the shutdown used to give requests in flight before resetting them. */
const HOLD_AFTER_SIGNAL_MS = 6_000;
const SIGN_UPS = 8;

/**
 * The service as `npm start -w services/accounts` runs it, in a process of its own, stopped with
 * SIGTERM while sign-ups are in flight: some still waiting for bcrypt in the thread pool, the
 * others for a slow mail server (issue 29, item 10).
 */
describe('accounts service stopped with SIGTERM', () => {
  let smtp: TestSmtpServer;
  let child: ChildProcess;
  let dataDir: string;
  let output = '';
  let release: () => void = () => undefined;

  beforeAll(async () => {
    smtp = await startSmtpServer({ holdUntil: new Promise<void>((resolve) => (release = resolve)) });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'accounts-shutdown-'));
  });
  afterAll(async () => {
    release();
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every request in flight, refuses new ones with 503 and Connection: close, and exits 0 within its bound', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const root = path.join(__dirname, '..');
    child = spawn(
      process.execPath,
      ['--conditions=@cloud/source', '-r', require.resolve('@cloud/jest-preset/run-typescript.cjs'), path.join(root, 'src', 'main.ts')],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? '',
          DATA_DIR: dataDir,
          ACCOUNTS_PORT: String(port),
          SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
          // The default cost: each sign-up is real bcrypt work in the thread pool.
          BCRYPT_ROUNDS: '12',
          SIGNUP_MAX_PER_ADDRESS: '1000',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.once('exit', (code) => resolve({ code, at: Date.now() })));
    await waitUntil('the service to be ready', async () => (await fetch(`${url}/readyz`)).status === 200, 120_000, 200).catch((error: Error) => {
      throw new Error(`${error.message}; it wrote:\n${output}`);
    });

    // A connection reset is recorded as an answer (status 0), so the assertions below report it.
    const signUps = Array.from({ length: SIGN_UPS }, async () => {
      try {
        const res = await fetch(`${url}/users`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: uniqueEmail('draining'), password: PASSWORD, displayName: 'Draining' }),
        });
        return { status: res.status, connection: res.headers.get('connection'), body: (await res.json()) as unknown };
      } catch (error) {
        return { status: 0, error: String((error as Error).cause ?? error) };
      }
    });
    // One sign-up has had its bcrypt work done and waits for the mail server: every request has
    // long been read, and the others wait for bcrypt or the mail server too.
    await waitUntil('a sign-up to reach the mail server', () => smtp.held() >= 1, 60_000);

    child.kill('SIGTERM');
    const signalled = Date.now();
    await waitUntil('the shutdown to begin', () => output.includes('shutting down'), 30_000);
    const late = await fetch(`${url}/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail('late'), password: PASSWORD, displayName: 'Late' }),
    });
    expect(late.status).toBe(503);
    expect(late.headers.get('connection')).toBe('close');
    expect(late.headers.get('retry-after')).toBe('1');
    expect(await late.json()).toEqual({ code: 'ServiceUnavailable', message: 'this server is shutting down; try again' });

    // The mail server answers only after the old 5 s, which used to reset what was still in flight.
    await new Promise((resolve) => setTimeout(resolve, HOLD_AFTER_SIGNAL_MS - (Date.now() - signalled)));
    release();
    const answers = await Promise.all(signUps);
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 201, connection: 'close', body: { email: expect.stringContaining('draining') } });
    }
    expect(smtp.received).toHaveLength(SIGN_UPS);

    const exit = await exited;
    expect(exit.code).toBe(0);
    expect(exit.at - signalled).toBeLessThan(ACCOUNTS_SHUTDOWN.exitBoundMs);
    expect(output).toContain('requests in flight answered');
  }, 180_000);
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
