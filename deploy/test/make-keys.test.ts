import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSigningKey } from '@cloud/auth';
import { loadNodeRpcKey } from '@cloud/node-rpc-auth';
import { loadStakingConfig } from '@cloud/staking';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { makeKeys, KEY_FILES } = require('../make-keys.js') as { makeKeys: (folder: string) => string[]; KEY_FILES: string[] };

describe('deploy/make-keys.js', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'cloud-keys-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('makes every key file, readable by its owner only, in the forms the services accept', () => {
    expect(makeKeys(folder).sort()).toEqual([...KEY_FILES].sort());
    for (const name of KEY_FILES) expect(statSync(path.join(folder, name)).mode & 0o077).toBe(0);
    const read = (name: string) => readFileSync(path.join(folder, name), 'utf8');

    expect(() => loadSigningKey(Buffer.from(read('auth-signing-key.pem')))).not.toThrow();
    expect(Buffer.byteLength(read('client-secret-hash.key').trim())).toBeGreaterThanOrEqual(32);
    expect(Buffer.byteLength(read('two-factor.key').trim())).toBeGreaterThanOrEqual(32);
    const rpcKeyFile = path.join(folder, 'node-rpc.key');
    expect(loadNodeRpcKey({ NODE_RPC_KEY_FILE: rpcKeyFile, DATA_DIR: folder }).toString()).toBe(read('node-rpc.key'));
    expect(() => loadStakingConfig({ STAKING_KEY_ENCRYPTION_KEY: read('staking-encryption.key') })).not.toThrow();
    // The streams service seals its webhook signing secrets with it: the base64 of 32 bytes.
    expect(Buffer.from(read('streams-secrets.key'), 'base64')).toHaveLength(32);
  });

  it('keeps the keys that exist: a new key would lock the platform out of its nodes and data', () => {
    writeFileSync(path.join(folder, 'node-rpc.key'), 'the existing key');
    expect(makeKeys(folder)).not.toContain('node-rpc.key');
    expect(readFileSync(path.join(folder, 'node-rpc.key'), 'utf8')).toBe('the existing key');
    expect(makeKeys(folder)).toEqual([]);
  });
});
