import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '@cloud/config';
import { startPlatform } from '../src';

describe('startPlatform', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves every service on its port with the embedded defaults, and stops cleanly', async () => {
    const platform = await startPlatform({ DATA_DIR: dataDir, ACCOUNTS_PORT: '0', LOG_LEVEL: 'silent', BCRYPT_ROUNDS: '4' });
    try {
      const health = await fetch(`${platform.urls.accounts}/healthz`);
      expect(health.status).toBe(200);
      const ready = await fetch(`${platform.urls.accounts}/readyz`);
      expect(ready.status).toBe(200);
      const signUp = await fetch(`${platform.urls.accounts}/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'walk@example.com', password: 'correct horse 42', displayName: 'Walker' }),
      });
      expect(signUp.status).toBe(201);
    } finally {
      await platform.stop();
    }
    // The embedded default keeps its state under DATA_DIR: the PGlite database, keys and the outbox.
    expect(readdirSync(dataDir).sort()).toEqual(['db', 'keys', 'mail']);
    expect(readdirSync(path.join(dataDir, 'mail'))).toHaveLength(1);
    await expect(fetch(`${platform.urls.accounts}/healthz`)).rejects.toThrow();
  });

  it('refuses to start on a bad variable, naming it', async () => {
    await expect(startPlatform({ DATA_DIR: dataDir, ACCOUNTS_PORT: 'x' })).rejects.toThrow(ConfigError);
    await expect(startPlatform({ DATA_DIR: dataDir, ACCOUNTS_PORT: 'x' })).rejects.toThrow('ACCOUNTS_PORT');
  });
});
