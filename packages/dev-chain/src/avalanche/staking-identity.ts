import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { avalancheNodeIdFromPem } from '@cloud/chains';

export interface StakingIdentity {
  nodeId: string;
  /**
   * Stand-ins for the node's BLS public key (48 bytes) and proof of possession (96 bytes), as 0x-hex:
   * the dev chain signs nothing, so these are not BLS values, only stable per NodeID.
   */
  blsPublicKey: string;
  blsProofOfPossession: string;
}

function readPem(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`--${flag}: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

function placeholder(label: string, nodeId: string, bytes: number): string {
  return `0x${createHash('shake256', { outputLength: bytes }).update(`${label}:${nodeId}`).digest('hex')}`;
}

/**
 * The node's identity, from avalanchego's staking files: the NodeID of the certificate, once the key
 * file is known to hold the private key of the certificate's public key. Throws naming the flag.
 */
export function loadStakingIdentity(certFile: string, keyFile: string): StakingIdentity {
  const certificatePem = readPem('staking-tls-cert-file', certFile);
  let nodeId: string;
  try {
    nodeId = avalancheNodeIdFromPem(certificatePem);
  } catch (error) {
    throw new Error(`--staking-tls-cert-file ${certFile}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const keyPem = readPem('staking-tls-key-file', keyFile);
  let key: KeyObject;
  try {
    key = createPrivateKey(keyPem);
  } catch (error) {
    throw new Error(`--staking-tls-key-file ${keyFile}: not a private key PEM`, { cause: error });
  }
  if (!new X509Certificate(certificatePem).checkPrivateKey(key)) {
    throw new Error(`--staking-tls-key-file ${keyFile} does not match the public key of the certificate in ${certFile}`);
  }
  return { nodeId, blsPublicKey: placeholder('bls-public-key', nodeId, 48), blsProofOfPossession: placeholder('bls-proof-of-possession', nodeId, 96) };
}
