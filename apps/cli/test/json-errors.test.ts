import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { TwoFactorRequiredError, UnauthorizedError } from '@cloud/sdk';
import { run } from '../src';
import { describeFailure } from '../src/exit-codes';
import { TextSink } from './support/capture';

// Commander's own refusals (an unknown command, a value not among the choices, a missing
// argument) are usage errors: exit 2 either way, and with --json the JSON error on stdout.

async function cloud(args: string[], stdin = '', accountsUrl = 'http://127.0.0.1:9') {
  const home = mkdtempSync(path.join(os.tmpdir(), 'cloud-json-errors-'));
  const stdout = new TextSink();
  const stderr = new TextSink();
  // Nothing here reaches a platform: an address nothing listens on, in case something tried.
  const env = { XDG_CONFIG_HOME: path.join(home, 'config'), HOME: home, CLOUD_ACCOUNTS_URL: accountsUrl, CLOUD_NODES_URL: 'http://127.0.0.1:9' };
  const code = await run(args, { env, cwd: home, stdin: Readable.from([stdin]), stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('--json and usage errors', () => {
  it.each([
    [['--json', 'nodes', 'create', 'dogecoin'], /dogecoin.*invalid.*Allowed choices/],
    [['nodes', 'create', 'dogecoin', '--json'], /dogecoin/],
    [['--json', 'nodes', 'launch'], /unknown command 'launch'/],
    [['--json', 'login'], /missing required argument 'user'/],
    [['--json', 'nodes', 'logs', 'n-1', '--lines', 'many'], /--lines.*whole number/],
  ])('cloud %j prints the JSON error on stdout and exits 2', async (args, words) => {
    const result = await cloud(args);
    expect(result.code).toBe(2);
    const body = JSON.parse(result.stdout) as { error: { code: string; message: string; exitCode: number } };
    expect(body).toEqual({ error: { code: 'Usage', message: expect.stringMatching(words) as unknown, exitCode: 2 } });
    expect(body.error.message).not.toMatch(/^error: /);
    expect(result.stderr).toBe('');
  });

  it("keeps commander's text, and exit 2, without --json", async () => {
    const result = await cloud(['nodes', 'create', 'dogecoin']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/error: .*dogecoin/);
    expect(result.stderr).toContain('(run with --help for usage)');
  });
});

describe('advice that fits the command run', () => {
  const wrong = new UnauthorizedError(401, 'Unauthorized', 'wrong user id, e-mail or password', 'accounts');

  it('tells a refused cloud login what to check, not to run cloud login', () => {
    const failure = describeFailure(wrong, 'login');
    expect(failure).toMatchObject({ exitCode: 3, code: 'Unauthorized', status: 401 });
    expect(failure.message).toContain('wrong user id, e-mail or password: check the e-mail address (or user id) and the password');
    expect(failure.message).toContain('cloud password reset');
    expect(failure.message).not.toContain('run "cloud login"');
    const twoFactor = describeFailure(new TwoFactorRequiredError(401, 'TwoFactorRequired', 'this account has two-factor login', 'accounts'), 'login');
    expect(twoFactor).toMatchObject({ exitCode: 3, code: 'TwoFactorRequired' });
    expect(twoFactor.message).toContain('--code');
    expect(twoFactor.message).not.toContain('cloud login');
  });

  it('gives that advice when cloud login itself is refused', async () => {
    // An accounts API that refuses every login, as the real one does a wrong password.
    const server = createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'Unauthorized', message: 'wrong user id, e-mail or password' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const result = await cloud(['login', 'ada@example.com', '--password-stdin'], 'not the password\n', url);
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(/^cloud: wrong user id, e-mail or password: check the e-mail address/);
      expect(result.stderr).not.toContain('run "cloud login"');
      const json = await cloud(['--json', 'login', 'ada@example.com', '--password-stdin'], 'not the password\n', url);
      expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'Unauthorized', status: 401, exitCode: 3 } });
    } finally {
      server.close();
    }
  });

  it('still tells other commands refused for their session to log in', () => {
    expect(describeFailure(wrong, 'nodes list').message).toContain('run "cloud login"');
    expect(describeFailure(wrong).message).toContain('run "cloud login"');
  });
});
