import { createPrivateKey, webcrypto, X509Certificate } from 'node:crypto';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import {
  AlgorithmIdentifier,
  BasicConstraints,
  Certificate,
  Extension,
  Extensions,
  id_ce_basicConstraints,
  id_ce_keyUsage,
  KeyUsage,
  KeyUsageFlags,
  Name,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
} from '@peculiar/asn1-x509';

/** A validator node's staking identity, in PEM: its certificate, and its private key (PKCS#8). */
export interface StakingTls {
  certificatePem: string;
  keyPem: string;
}

// sha256WithRSAEncryption, with the NULL parameters RFC 4055 asks for (what Go writes).
const SHA256_WITH_RSA = '1.2.840.113549.1.1.11';
const RSA_KEY: webcrypto.RsaHashedKeyGenParams = { name: 'RSASSA-PKCS1-v1_5', modulusLength: 4096, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };

/**
 * avalanchego's NotBefore: `time.Date(2000, time.January, 0, ...)`, which Go normalises (day 0 of
 * January) to the last day of December 1999.
 */
export const STAKING_NOT_BEFORE = new Date(Date.UTC(1999, 11, 31));
const VALID_YEARS = 100;

/**
 * A new staking key and self-signed certificate, made as avalanchego's
 * `staking.NewCertAndKeyBytes` makes them (staking/tls.go): RSA 4096, serial number 0, an empty
 * subject and issuer, valid from 1999-12-31 for 100 years from now, key usage digitalSignature,
 * keyEncipherment and dataEncipherment (critical), basic constraints present and not a CA
 * (critical), signed with SHA-256. The node's NodeID is derived from this certificate, so it is
 * known before the node ever runs.
 *
 * Built on @peculiar/asn1-x509 (the ASN.1 layer of @peculiar/x509) because @peculiar/x509's
 * generator replaces a zero serial number with a random one.
 */
export async function newStakingTls(now: Date): Promise<StakingTls> {
  const keys = await webcrypto.subtle.generateKey(RSA_KEY, true, ['sign', 'verify']);
  const signatureAlgorithm = new AlgorithmIdentifier({ algorithm: SHA256_WITH_RSA, parameters: null });
  const notAfter = new Date(now.getTime());
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + VALID_YEARS);
  const tbsCertificate = new TBSCertificate({
    version: Version.v3,
    serialNumber: new Uint8Array([0]).buffer,
    signature: signatureAlgorithm,
    issuer: new Name(),
    validity: new Validity({ notBefore: STAKING_NOT_BEFORE, notAfter }),
    subject: new Name(),
    subjectPublicKeyInfo: AsnConvert.parse(await webcrypto.subtle.exportKey('spki', keys.publicKey), SubjectPublicKeyInfo),
    // In the order Go writes them.
    extensions: new Extensions([
      extension(id_ce_keyUsage, new KeyUsage(KeyUsageFlags.digitalSignature | KeyUsageFlags.keyEncipherment | KeyUsageFlags.dataEncipherment)),
      extension(id_ce_basicConstraints, new BasicConstraints({ cA: false })),
    ]),
  });
  const tbs = AsnConvert.serialize(tbsCertificate);
  const signatureValue = await webcrypto.subtle.sign(RSA_KEY.name, keys.privateKey, tbs);
  const der = AsnConvert.serialize(new Certificate({ tbsCertificate, signatureAlgorithm, signatureValue }));
  const certificate = new X509Certificate(Buffer.from(der));
  const privateKey = createPrivateKey({ key: Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)), format: 'der', type: 'pkcs8' });
  // Guards the hand-built encoding: a certificate its own key does not verify would stop the node.
  if (!certificate.verify(certificate.publicKey) || !certificate.checkPrivateKey(privateKey)) throw new Error('the new staking certificate does not verify');
  return { certificatePem: certificate.toString(), keyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() };
}

function extension(extnID: string, value: object): Extension {
  return new Extension({ extnID, critical: true, extnValue: new OctetString(AsnConvert.serialize(value)) });
}
