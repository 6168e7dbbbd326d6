import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from 'node:crypto';
import { TOKEN_ALGORITHM } from './tokens';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** A fresh ECDSA P-256 private key as PKCS#8 PEM (what `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256` makes). */
export function generateSigningKeyPem(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}

/** RFC 7638 thumbprint of an EC public key: a key id that any holder of the key computes alike. */
export function keyId(publicKey: KeyObject): string {
  const { crv, kty, x, y } = publicKey.export({ format: 'jwk' });
  return createHash('sha256').update(JSON.stringify({ crv, kty, x, y })).digest('base64url');
}

export function loadSigningKey(pem: string | Buffer): SigningKey {
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'ec' || privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error('the token signing key must be an EC P-256 private key (ES256)');
  }
  const publicKey = createPublicKey(privateKey);
  return { kid: keyId(publicKey), privateKey, publicKey };
}

export interface PublicJwk extends JsonWebKey {
  kid: string;
  alg: string;
  use: 'sig';
}

/** The public half as a JWK, as published at /.well-known/jwks.json. */
export function toPublicJwk(publicKey: KeyObject): PublicJwk {
  const { crv, kty, x, y } = publicKey.export({ format: 'jwk' });
  return { kty, crv, x, y, kid: keyId(publicKey), alg: TOKEN_ALGORITHM, use: 'sig' };
}

export function fromPublicJwk(jwk: JsonWebKey): KeyObject {
  return createPublicKey({ key: jwk, format: 'jwk' });
}
