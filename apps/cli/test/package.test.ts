import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { unusedPortUrl } from '@cloud/all-in-one/testing';

// `cloud` installed on its own, as a user outside this repository gets it: the SDK and CLI
// packed with npm pack, installed into an empty project, and the installed binary run as a
// process (real exit codes, stdin, stdout). Needs the packages built (turbo builds them first).

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, '..', '..', '..');

/** Runs a command; its exit code and output, whether it succeeded or not. */
async function exec(file: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string }) {
  const child = execFile(file, args, { cwd: options.cwd, env: options.env ?? process.env, timeout: 120_000 });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin!.end(options.input ?? '');
  const [code] = (await once(child, 'close')) as [number];
  return { code, stdout, stderr };
}

describe('the cloud package', () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'cloud-package-'));
  const project = path.join(work, 'project');
  const cloud = path.join(project, 'node_modules', '.bin', 'cloud');
  /** The environment of a user with no config yet. */
  const userEnv = { PATH: process.env.PATH, HOME: path.join(work, 'home'), XDG_CONFIG_HOME: path.join(work, 'home', 'config') };
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  beforeAll(async () => {
    await run('npm', ['pack', '--silent', '--pack-destination', work, '-w', '@cloud/sdk', '-w', '@cloud/cli'], { cwd: repoRoot });
    const tarballs = readdirSync(work).filter((file) => file.endsWith('.tgz'));
    expect(tarballs.sort()).toEqual(['cloud-cli-0.1.0.tgz', 'cloud-sdk-0.1.0.tgz']);
    mkdirSync(project);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'someone-elses-project', private: true }));
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--silent', ...tarballs.map((file) => path.join(work, file))], {
      cwd: project,
    });
  }, 300_000);

  it('installs from its tarball with only its declared dependencies and runs', async () => {
    expect(await exec(cloud, ['--version'], { cwd: project, env: userEnv })).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
    const help = await exec(cloud, ['nodes', '--help'], { cwd: project, env: userEnv });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/create \[options\] <image>/);
  });

  it('exits with the documented codes as a process: 3 not logged in, 8 platform unreachable, 2 usage', async () => {
    const notLoggedIn = await exec(cloud, ['--json', 'nodes', 'list'], { cwd: project, env: userEnv });
    expect(notLoggedIn.code).toBe(3);
    expect(JSON.parse(notLoggedIn.stdout)).toEqual({ error: { code: 'NotLoggedIn', message: 'not logged in; run "cloud login"', exitCode: 3 } });

    // Not logged in: said before any password is asked for.
    expect(await exec(cloud, ['password'], { cwd: project, env: userEnv })).toMatchObject({ code: 3, stderr: 'cloud: not logged in; run "cloud login"\n' });

    const closed = await unusedPortUrl();
    const unreachable = await exec(cloud, ['--accounts-url', closed, 'login', 'ada@example.com', '--password-stdin'], {
      cwd: project,
      env: userEnv,
      input: 'correct horse 42\n',
    });
    expect(unreachable).toMatchObject({ code: 8, stdout: '', stderr: expect.stringContaining(`cloud: cannot reach the accounts service at ${closed}`) });

    const usage = await exec(cloud, ['nodes', 'create'], { cwd: project, env: userEnv });
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining("missing required argument 'image'") });
  });
});
