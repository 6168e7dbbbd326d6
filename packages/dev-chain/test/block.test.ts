import { createHash, scryptSync } from 'node:crypto';
import {
  bitsToTarget,
  blockHash,
  blockWork,
  difficulty,
  fromDisplayHex,
  merkleRoot,
  parseBlock,
  scriptNumber,
  serializeBlock,
  serializeHeader,
  toDisplayHex,
  txid,
} from '../src/block';
import { Chain } from '../src/chain';
import { CHAIN_PARAMS, REGTEST_BITS } from '../src/params';

const sha256d = (data: Buffer) => createHash('sha256').update(createHash('sha256').update(data).digest()).digest();
const asNumber = (hash: Buffer) => BigInt(`0x${Buffer.from(hash).reverse().toString('hex')}`);
const REGTEST_TARGET = 0x7fffffn << 232n;

describe('genesis blocks', () => {
  it.each([
    ['btc', '0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206', '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b'],
    ['bch', '0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206', '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b'],
    ['ltc', '530827f38f93b43ed12af0b3ad25a288dc02ed74d6d7857862df51fc56c416f9', '97ddfbbae6be97fd6cdf3e7ca13232a3afff2353e29badfab7f73011edd4ced9'],
  ] as const)('%s is the real regtest genesis block', (chain, hash, merkle) => {
    const { genesis } = CHAIN_PARAMS[chain];
    expect(toDisplayHex(blockHash(genesis.header))).toBe(hash);
    expect(toDisplayHex(txid(genesis.transactions[0]!))).toBe(merkle);
    expect(toDisplayHex(genesis.header.merkleRoot)).toBe(merkle);
  });
});

describe('proof of work', () => {
  it.each(['btc', 'bch'] as const)('%s blocks meet the regtest target by double-SHA256', (chain) => {
    const node = new Chain(CHAIN_PARAMS[chain], [], () => undefined);
    for (const entry of node.mine(20)) {
      const header = serializeHeader(entry.block.header);
      expect(asNumber(sha256d(header))).toBeLessThanOrEqual(REGTEST_TARGET);
      expect(entry.block.header.bits).toBe(REGTEST_BITS);
    }
  });

  it('ltc blocks meet it by scrypt, the hash litecoind checks', () => {
    const node = new Chain(CHAIN_PARAMS.ltc, [], () => undefined);
    for (const entry of node.mine(10)) {
      const header = serializeHeader(entry.block.header);
      expect(asNumber(scryptSync(header, header, 32, { N: 1024, r: 1, p: 1 }))).toBeLessThanOrEqual(REGTEST_TARGET);
    }
  });

  it('takes the nonce litecoind took for a header it mined', () => {
    // Block 2 of a litecoind 0.21 regtest chain: nonces 0 to 2 fail the scrypt target, 3 meets it.
    const header = Buffer.from(
      '00000020e3bdfd02f9c7454d377e77c83fb481528816128c95cdf8c931a79f810bf9e88ff0fe7265d8c5559ef3d053aab27bb0d7ce3f8b9bba106e8bd5472dfec5452f25224b036bffff7f2003000000',
      'hex',
    );
    const meets = [0, 1, 2, 3].map((nonce) => {
      header.writeUInt32LE(nonce, 76);
      return asNumber(CHAIN_PARAMS.ltc.powHash(header)) <= bitsToTarget(REGTEST_BITS);
    });
    expect(meets).toEqual([false, false, false, true]);
    expect(toDisplayHex(sha256d(header))).toBe('b9895a2e914997149f0e1207590a21bf0ccc2128c84a7b76159bb001156f9aa6');
  });

  it('computes targets, work and difficulty as Core does', () => {
    expect(bitsToTarget(REGTEST_BITS)).toBe(REGTEST_TARGET);
    expect(bitsToTarget(0x1d00ffff)).toBe(0xffffn << 208n);
    expect(blockWork(REGTEST_BITS)).toBe(2n);
    expect(blockWork(0x1d00ffff)).toBe(0x100010001n);
    expect(difficulty(0x1d00ffff)).toBe(1);
    expect(difficulty(REGTEST_BITS)).toBe(4.656542373906925e-10);
  });
});

describe('serialization', () => {
  it('round-trips a mined block and names it by its header', () => {
    const node = new Chain(CHAIN_PARAMS.btc, [], () => undefined);
    const [entry] = node.mine(1);
    const raw = serializeBlock(entry!.block);
    expect(raw.equals(entry!.raw)).toBe(true);
    expect(serializeBlock(parseBlock(raw)).equals(raw)).toBe(true);
    expect(toDisplayHex(sha256d(raw.subarray(0, 80)))).toBe(entry!.hash);
    expect(() => parseBlock(Buffer.concat([raw, Buffer.from([0])]))).toThrow('trailing data');
  });

  it('puts the height first in the coinbase script (BIP34)', () => {
    const node = new Chain(CHAIN_PARAMS.btc, [], () => undefined);
    const scripts = node.mine(17).map((entry) => entry.block.transactions[0]!.inputs[0]!.scriptSig.toString('hex'));
    expect(scripts[0]).toBe('510101');
    expect(scripts[15]).toBe('600101');
    expect(scripts[16]).toBe('01110101');
  });

  it('pushes numbers as CScript does', () => {
    expect([0, 1, 16, 17, 127, 128, 255, 256, 500, 65536].map((n) => scriptNumber(n).toString('hex'))).toEqual([
      '00',
      '51',
      '60',
      '0111',
      '017f',
      '028000',
      '02ff00',
      '020001',
      '02f401',
      '03000001',
    ]);
  });

  it('builds the merkle tree of mainnet block 100000 (an even level) and pairs an odd last node with itself', () => {
    const txids = [
      '8c14f0db3df150123e6f3dbbf30f8b955a8249b62ac1d1ff16284aefa3d06d87',
      'fff2525b8931402dd09222c50775608f75787bd2b87e56995a7bdd30f79702c4',
      '6359f0868171b1d194cbee1af2f16ea598ae8fad666d9b012c8ed2b79a236ec4',
      'e9a66845e05d5abc0ad04ec80f774a7e585c6e8db975962d069a522137b80c1d',
    ].map(fromDisplayHex);
    expect(toDisplayHex(merkleRoot(txids))).toBe('f3e94742aca4b5ef85488dc37c06c3282295ffec960994b2c0d5ac2a25a95766');
    const [a, b, c] = txids as [Buffer, Buffer, Buffer];
    const pair = (left: Buffer, right: Buffer) => sha256d(Buffer.concat([left, right]));
    expect(merkleRoot([a, b, c]).equals(pair(pair(a, b), pair(c, c)))).toBe(true);
    expect(merkleRoot([a]).equals(a)).toBe(true);
  });
});
