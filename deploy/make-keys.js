#!/usr/bin/env node
/**
 * Makes the platform's key files in a folder, keeping any that already exist:
 *   auth-signing-key.pem     AUTH_SIGNING_KEY_FILE (accounts): EC P-256 private key that signs tokens
 *   client-secret-hash.key   CLIENT_SECRET_HASH_KEY_FILE (accounts): key of the client secrets' hash
 *   two-factor.key           TWO_FACTOR_KEY_FILE (accounts): encrypts two-factor secrets, hashes recovery codes
 *   node-rpc.key             NODE_RPC_KEY_FILE (nodes, node-proxy, staking, streams): derives nodes' RPC logins
 *   staking-encryption.key   STAKING_KEY_ENCRYPTION_KEY_FILE (staking): AES-256 key, base64 of 32 bytes
 *   streams-secrets.key      STREAMS_SECRET_KEY_FILE (streams): seals webhook signing secrets, base64 of 32 bytes
 * docker-compose.yml runs it once into the shared `keys` volume; for Kubernetes, run it into the
 * overlay's secrets/ folder (deploy/README.md). Usage: node deploy/make-keys.js <folder>
 */
// A plain CommonJS script: docker-compose.yml mounts it alone into an image, without the workspace.
const { generateKeyPairSync, randomBytes } = require('node:crypto');
const { mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const KEYS = {
  'auth-signing-key.pem': () => generateKeyPairSync('ec', { namedCurve: 'P-256', privateKeyEncoding: { type: 'pkcs8', format: 'pem' } }).privateKey,
  'client-secret-hash.key': () => randomBytes(48).toString('base64'),
  'two-factor.key': () => randomBytes(48).toString('base64'),
  'node-rpc.key': () => randomBytes(32).toString('base64'),
  'staking-encryption.key': () => randomBytes(32).toString('base64'),
  'streams-secrets.key': () => randomBytes(32).toString('base64'),
};

function makeKeys(folder) {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const made = [];
  for (const [name, generate] of Object.entries(KEYS)) {
    try {
      writeFileSync(path.join(folder, name), generate(), { mode: 0o600, flag: 'wx' });
      made.push(name);
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
  }
  return made;
}

if (require.main === module) {
  const folder = process.argv[2];
  if (!folder) {
    process.stderr.write('usage: node make-keys.js <folder>\n');
    process.exit(2);
  }
  const made = makeKeys(folder);
  process.stdout.write(`${folder}: ${made.length > 0 ? `made ${made.join(', ')}` : 'every key already there'}\n`);
}

module.exports = { makeKeys, KEY_FILES: Object.keys(KEYS) };
