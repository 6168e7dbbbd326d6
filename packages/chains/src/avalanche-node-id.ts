import { createHash, X509Certificate } from 'node:crypto';
import { base58 } from '@scure/base';

const NODE_ID_PREFIX = 'NodeID-';
const CHECKSUM_BYTES = 4;
const SHORT_ID_BYTES = 20;

function sha256(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

/** avalanchego's CB58: base58 (Bitcoin alphabet) of the payload followed by the last 4 bytes of its SHA-256. */
export function cb58Encode(payload: Uint8Array): string {
  return base58.encode(Buffer.concat([payload, sha256(payload).subarray(-CHECKSUM_BYTES)]));
}

/** The payload of a CB58 string; throws when it is not base58 or its checksum does not match. */
export function cb58Decode(text: string): Uint8Array {
  const bytes = base58.decode(text);
  if (bytes.length < CHECKSUM_BYTES) throw new Error('CB58 string too short for its checksum');
  const payload = bytes.subarray(0, -CHECKSUM_BYTES);
  if (!sha256(payload).subarray(-CHECKSUM_BYTES).equals(bytes.subarray(-CHECKSUM_BYTES))) throw new Error('CB58 checksum mismatch');
  return payload;
}

/**
 * The NodeID avalanchego derives from its staking certificate (`ids.NodeIDFromCert`):
 * `NodeID-` + CB58(RIPEMD-160(SHA-256(DER of the certificate))).
 */
export function avalancheNodeId(certificateDer: Uint8Array): string {
  const shortId = createHash('ripemd160').update(sha256(certificateDer)).digest();
  return `${NODE_ID_PREFIX}${cb58Encode(shortId)}`;
}

/** The NodeID of a staking certificate in PEM (the `CERTIFICATE` block of a `staker.crt`). */
export function avalancheNodeIdFromPem(pem: string): string {
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error('not a certificate: no "-----BEGIN CERTIFICATE-----" PEM block');
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(pem);
  } catch (error) {
    throw new Error(`not a valid certificate PEM: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return avalancheNodeId(certificate.raw);
}

/** Whether `text` is a NodeID as avalanchego parses one: `NodeID-` and the CB58 of 20 bytes. */
export function isAvalancheNodeId(text: string): boolean {
  if (!text.startsWith(NODE_ID_PREFIX)) return false;
  try {
    return cb58Decode(text.slice(NODE_ID_PREFIX.length)).length === SHORT_ID_BYTES;
  } catch {
    return false;
  }
}
