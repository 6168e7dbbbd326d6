import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { loadNodeRpcKey, newNodeCredentials, nodeRpcAuthorization, nodeRpcPassword, NODE_RPC_USER } from '../src';

describe('node RPC credentials', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'node-rpc-auth-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates the key once under DATA_DIR, private to its owner, and reads the same key after', () => {
    const first = loadNodeRpcKey({ DATA_DIR: dataDir });
    const file = path.join(dataDir, 'keys', 'node-rpc.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadNodeRpcKey({ DATA_DIR: dataDir }).equals(first)).toBe(true);
    expect(readFileSync(file, 'utf8').trim().length).toBeGreaterThanOrEqual(32);
  });

  it('derives a different password per node and per key, the same every time', () => {
    const key = Buffer.from('k'.repeat(32));
    expect(nodeRpcPassword(key, 'node-a')).toBe(nodeRpcPassword(key, 'node-a'));
    expect(nodeRpcPassword(key, 'node-a')).not.toBe(nodeRpcPassword(key, 'node-b'));
    expect(nodeRpcPassword(Buffer.from('x'.repeat(32)), 'node-a')).not.toBe(nodeRpcPassword(key, 'node-a'));
    expect(nodeRpcPassword(key, 'node-a')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('builds the Basic header of the proxy user', () => {
    const key = Buffer.from('k'.repeat(32));
    const header = nodeRpcAuthorization(key, 'node-a');
    expect(Buffer.from(header.replace(/^Basic /, ''), 'base64').toString()).toBe(`${NODE_RPC_USER}:${nodeRpcPassword(key, 'node-a')}`);
  });

  it('makes new Basic credentials for a node: a random user and 32-byte password, and the SHA-256 the proxy checks', () => {
    const first = newNodeCredentials();
    const second = newNodeCredentials();
    expect(first.nodeUser).toMatch(/^u[0-9a-f]{16}$/);
    expect(Buffer.from(first.nodePass, 'base64url')).toHaveLength(32);
    expect(first.passwordHash).toBe(createHash('sha256').update(first.nodePass).digest('hex'));
    expect([second.nodeUser, second.nodePass]).not.toEqual([first.nodeUser, first.nodePass]);
  });
});
