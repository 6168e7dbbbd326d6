import { createPrivateKey, X509Certificate } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { BasicConstraints, Certificate, id_ce_basicConstraints, id_ce_keyUsage, KeyUsage, KeyUsageFlags } from '@peculiar/asn1-x509';
import { avalancheNodeIdFromPem, isAvalancheNodeId } from '@cloud/chains';
import { newStakingTls } from '../src/domain/staking-certificate';

// What avalanchego's staking.NewCertAndKeyBytes (staking/tls.go) writes, field by field.
describe("a validator's staking certificate", () => {
  const now = new Date('2026-11-30T12:34:56.789Z');
  let certificatePem: string;
  let keyPem: string;
  let parsed: Certificate;
  beforeAll(async () => {
    ({ certificatePem, keyPem } = await newStakingTls(now));
    parsed = AsnConvert.parse(new X509Certificate(certificatePem).raw, Certificate);
  });

  it('is a self-signed X.509 v3 certificate with serial number 0 and empty names', () => {
    const tbs = parsed.tbsCertificate;
    expect(tbs.version).toBe(2); // v3
    expect(Buffer.from(tbs.serialNumber)).toEqual(Buffer.from([0]));
    expect(tbs.subject).toHaveLength(0);
    expect(tbs.issuer).toHaveLength(0);
    const certificate = new X509Certificate(certificatePem);
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(parsed.signatureAlgorithm.algorithm).toBe('1.2.840.113549.1.1.11'); // sha256WithRSAEncryption
  });

  it("is valid from 1999-12-31 (Go's 2000-01-00) until 100 years from its making", () => {
    const { notBefore, notAfter } = parsed.tbsCertificate.validity;
    expect(notBefore.utcTime?.toISOString()).toBe('1999-12-31T00:00:00.000Z');
    expect(notAfter.generalTime?.toISOString()).toBe('2126-11-30T12:34:56.000Z');
  });

  it('has only the key usages and basic constraints Go writes, both critical, not a CA', () => {
    const extensions = parsed.tbsCertificate.extensions ?? [];
    expect(extensions.map((extension) => [extension.extnID, extension.critical])).toEqual([
      [id_ce_keyUsage, true],
      [id_ce_basicConstraints, true],
    ]);
    const usage = AsnConvert.parse(extensions[0]!.extnValue, KeyUsage);
    expect(usage.toNumber()).toBe(KeyUsageFlags.digitalSignature | KeyUsageFlags.keyEncipherment | KeyUsageFlags.dataEncipherment);
    expect(Buffer.from(extensions[0]!.extnValue.buffer)).toEqual(Buffer.from([0x03, 0x02, 0x04, 0xb0]));
    expect(AsnConvert.parse(extensions[1]!.extnValue, BasicConstraints).cA).toBe(false);
    expect(Buffer.from(extensions[1]!.extnValue.buffer)).toEqual(Buffer.from([0x30, 0x00]));
  });

  it('carries a 4096-bit RSA key (exponent 65537) whose PKCS#8 PEM is the key given', () => {
    const key = createPrivateKey(keyPem);
    expect(keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----\n$/);
    expect(key.asymmetricKeyType).toBe('rsa');
    expect(key.asymmetricKeyDetails).toEqual({ modulusLength: 4096, publicExponent: 65537n });
    expect(new X509Certificate(certificatePem).checkPrivateKey(key)).toBe(true);
  });

  it('gives the node a NodeID', () => {
    expect(isAvalancheNodeId(avalancheNodeIdFromPem(certificatePem))).toBe(true);
  });
});
