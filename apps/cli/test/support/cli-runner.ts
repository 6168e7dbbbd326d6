import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { TestPlatform } from '@cloud/all-in-one/testing';
import { run } from '../../src';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (for --json runs). */
  json<T = unknown>(): T;
}

/**
 * Runs `cloud` in this process against a test platform, as a user on their own machine: its own
 * config directory, the platform's addresses and proxy certificate from the environment.
 */
export function cliFor(platform: TestPlatform, extraEnv: NodeJS.ProcessEnv = {}) {
  const home = mkdtempSync(path.join(os.tmpdir(), 'cloud-cli-'));
  const caFile = path.join(home, 'proxy-cert.pem');
  writeFileSync(caFile, platform.proxy.certificate ?? '');
  const env: NodeJS.ProcessEnv = {
    XDG_CONFIG_HOME: path.join(home, 'config'),
    HOME: home,
    CLOUD_ACCOUNTS_URL: platform.urls.accounts,
    CLOUD_NODES_URL: platform.urls.nodes,
    CLOUD_STAKING_URL: platform.urls.staking,
    // The node records print the proxy's real ports: no port map needed.
    ...(platform.proxy.certificate ? { CLOUD_PROXY_CA: caFile } : {}),
    ...extraEnv,
  };

  const cli = async (args: string[], stdin = '', envOverride: NodeJS.ProcessEnv = {}): Promise<CliResult> => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    const code = await run(args, { env: { ...env, ...envOverride }, cwd: home, stdin: Readable.from([stdin]), stdout, stderr });
    return {
      code,
      stdout: out,
      stderr: err,
      json: <T>() => {
        try {
          return JSON.parse(out) as T;
        } catch {
          throw new Error(`cloud ${args.join(' ')} printed no JSON (exit ${code}); stdout: ${out}; stderr: ${err}`);
        }
      },
    };
  };
  return { cli, env, home, configFile: path.join(home, 'config', 'cloud', 'config.json'), cleanUp: () => rmSync(home, { recursive: true, force: true }) };
}
