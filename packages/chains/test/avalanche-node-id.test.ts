import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { avalancheNodeId, avalancheNodeIdFromPem, cb58Decode, cb58Encode, isAvalancheNodeId } from '../src';

// avalanchego's public local-network stakers (staking/local/stakerN.crt), with the NodeIDs its
// staking/local/README.md and genesis/genesis_local.json give them.
const STAKERS = [
  { file: 'staker1.crt', nodeId: 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg' },
  { file: 'staker2.crt', nodeId: 'NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ' },
];

function fixture(file: string): string {
  return readFileSync(join(__dirname, 'fixtures', file), 'utf8');
}

describe('avalancheNodeId', () => {
  it.each(STAKERS)('gives $file the NodeID avalanchego gives it', ({ file, nodeId }) => {
    expect(avalancheNodeIdFromPem(fixture(file))).toBe(nodeId);
    expect(avalancheNodeId(new X509Certificate(fixture(file)).raw)).toBe(nodeId);
  });

  it('gives a different certificate, or one changed by a byte, a different NodeID', () => {
    const [first, second] = STAKERS.map(({ file }) => new X509Certificate(fixture(file)).raw);
    expect(avalancheNodeId(first!)).not.toBe(avalancheNodeId(second!));
    const changed = Buffer.from(first!);
    changed[changed.length - 1]! ^= 1;
    expect(avalancheNodeId(changed)).not.toBe(avalancheNodeId(first!));
  });

  it('refuses a PEM that holds no certificate, and a broken certificate block', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    expect(() => avalancheNodeIdFromPem(keyPem)).toThrow('not a certificate: no "-----BEGIN CERTIFICATE-----" PEM block');
    expect(() => avalancheNodeIdFromPem('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')).toThrow(/^not a valid certificate PEM: /);
  });
});

describe('CB58 and NodeID parsing', () => {
  it('round-trips a payload and refuses a wrong checksum', () => {
    const payload = Uint8Array.from({ length: 20 }, (_, index) => index);
    const text = cb58Encode(payload);
    expect(Buffer.from(cb58Decode(text))).toEqual(Buffer.from(payload));
    const last = text.at(-1) === '1' ? '2' : '1';
    expect(() => cb58Decode(`${text.slice(0, -1)}${last}`)).toThrow('CB58 checksum mismatch');
  });

  it('knows a NodeID from what only looks like one', () => {
    expect(isAvalancheNodeId(STAKERS[0]!.nodeId)).toBe(true);
    expect(isAvalancheNodeId(STAKERS[0]!.nodeId.replace('NodeID-', ''))).toBe(false);
    expect(isAvalancheNodeId(`${STAKERS[0]!.nodeId.slice(0, -1)}h`)).toBe(false);
    expect(isAvalancheNodeId(`NodeID-${cb58Encode(new Uint8Array(32))}`)).toBe(false);
    expect(isAvalancheNodeId('NodeID-0OIl')).toBe(false);
  });
});
