import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

/** A self-signed staking pair as the staking service makes one (ECDSA here: quicker than RSA 4096, and the node accepts either). */
export async function stakingPair(): Promise<{ certificatePem: string; keyPem: string }> {
  x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({ serialNumber: '01', name: 'CN=validator', signingAlgorithm: algorithm, keys });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return {
    certificatePem: certificate.toString('pem'),
    keyPem: `-----BEGIN PRIVATE KEY-----\n${pkcs8.replace(/(.{64})/g, '$1\n')}\n-----END PRIVATE KEY-----\n`,
  };
}
