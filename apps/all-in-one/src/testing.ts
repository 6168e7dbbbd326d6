import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { startPlatform, type RunningPlatform } from './platform';

// The whole platform for tests of its clients (all-in-one, SDK, CLI): every service on the
// embedded defaults, on ports the system picks, with its state in a temporary directory.

export interface TestPlatform extends RunningPlatform {
  dataDir: string;
  /** The runtime contract's proxy ports (8332, ...) mapped to where this proxy listens: the SDK's `proxy.portMap`. */
  proxyPortMap: Record<number, number>;
  /** The user id and token of the newest verification e-mail to `to`, read from the dev outbox. */
  verificationFor(to: string): Promise<{ userId: string; token: string; link: string }>;
  /** The same of the newest password-reset e-mail to `to`, waiting for it (it is sent after the answer). */
  passwordResetFor(to: string): Promise<{ userId: string; token: string; link: string }>;
}

/** Every port picked by the system, so tests never collide with a running platform or each other. */
export const ANY_PORTS = {
  ACCOUNTS_PORT: '0',
  NODES_PORT: '0',
  STAKING_PORT: '0',
  STREAMS_PORT: '0',
  CONSOLE_PORT: '0',
  ...Object.fromEntries(['BTC', 'BTC_TESTNET', 'LTC', 'ETH', 'AVALANCHE', 'MANAGEMENT', 'ADMIN'].map((name) => [`PROXY_${name}_PORT`, '0'])),
};

/** Starts the platform (PGlite, in-process bus) in a fresh data directory, removed again by `stop`. */
export async function startTestPlatform(env: NodeJS.ProcessEnv = {}, dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-'))): Promise<TestPlatform> {
  // Every test client calls from 127.0.0.1: the per-address limits are for tests that set them.
  const perAddressLimits = { SIGNUP_MAX_PER_ADDRESS: '1000', PASSWORD_RESET_MAX_PER_ADDRESS: '1000' };
  // Its nodes stop with it: a test leaves no process behind (a deployment's stay running, for the next start).
  const platform = await startPlatform({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    BCRYPT_ROUNDS: '4',
    STOP_NODES_ON_SHUTDOWN: 'true',
    ...perAddressLimits,
    ...ANY_PORTS,
    ...env,
  });
  return {
    ...platform,
    dataDir,
    proxyPortMap: platform.proxy.contractPortMap,
    verificationFor: (to) => verificationFor(dataDir, to),
    passwordResetFor: async (to) => {
      for (let waited = 0; ; waited += 20) {
        try {
          return await mailedTokenFor(dataDir, to, 'Reset token');
        } catch (error) {
          if (waited >= 5000) throw error;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    },
    stop: async () => {
      await platform.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The address of a port nothing listens on (it was free a moment ago): a service that is down. */
export async function unusedPortUrl(): Promise<string> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** The user id, token and link of the newest verification e-mail to `to` in DATA_DIR's dev outbox. */
export function verificationFor(dataDir: string, to: string): Promise<{ userId: string; token: string; link: string }> {
  return mailedTokenFor(dataDir, to, 'Verification token');
}

/** The user id, token (after `label:`) and link of the newest such e-mail to `to` in DATA_DIR's dev outbox. */
async function mailedTokenFor(dataDir: string, to: string, label: string): Promise<{ userId: string; token: string; link: string }> {
  const mailDir = path.join(dataDir, 'mail');
  const files = existsSync(mailDir)
    ? readdirSync(mailDir)
        .filter((file) => file.endsWith('.eml'))
        .sort()
        .reverse()
    : [];
  for (const file of files) {
    const mail = await simpleParser(readFileSync(path.join(mailDir, file)));
    const recipients = [mail.to ?? []].flat().flatMap((address) => address.value.map((value) => value.address));
    if (!recipients.includes(to)) continue;
    const text = mail.text ?? '';
    const userId = /User id: (\S+)/.exec(text)?.[1];
    const token = new RegExp(`${label}: (\\S+)`).exec(text)?.[1];
    const link = /^\s+(https?:\/\/\S+)$/m.exec(text)?.[1];
    if (userId && token && link) return { userId, token, link };
  }
  throw new Error(`no e-mail with a ${label} to ${to} in ${mailDir}`);
}
