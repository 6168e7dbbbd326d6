import 'reflect-metadata'; // @peculiar/x509's dependency injection needs it loaded first
import { mkdtempSync, writeFileSync } from 'node:fs';
import { webcrypto } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';

/** RSA, as avalanchego's generated staking certificates were before it moved to ECDSA. */
const ALGORITHM = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };

export interface StakingFiles {
  dir: string;
  certFile: string;
  keyFile: string;
  certPem: string;
}

/** A self-signed staking certificate and its PKCS#8 key, written as staker.crt and staker.key in a new directory. */
export async function makeStakingFiles(): Promise<StakingFiles> {
  x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const notBefore = new Date(Date.now() - 60_000);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=dev-chain test staker',
    notBefore,
    notAfter: new Date(notBefore.getTime() + 365 * 24 * 3600 * 1000),
    signingAlgorithm: ALGORITHM,
    keys,
  });
  const dir = mkdtempSync(join(tmpdir(), 'dev-chain-staking-'));
  const files = { dir, certFile: join(dir, 'staker.crt'), keyFile: join(dir, 'staker.key'), certPem: cert.toString('pem') };
  writeFileSync(files.certFile, files.certPem);
  writeFileSync(files.keyFile, x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY'), { mode: 0o600 });
  return files;
}
