import { InvalidInputError } from '@cloud/http';
import { coinsOf } from '../src/domain/chain-readers';
import { matchBitcoin, matchEthereum, normalizeAddresses, normalizeTopics, outpointKey } from '../src/domain/matching';

const A = `0x${'a'.repeat(40)}`;
const B = `0x${'b'.repeat(40)}`;
const C = `0x${'c'.repeat(40)}`;
const TOPIC_1 = `0x${'1'.repeat(64)}`;
const TOPIC_2 = `0x${'2'.repeat(64)}`;
const place = { height: 7, blockHash: '0xblock' };

describe('address and topic checks', () => {
  it('lower-cases eth addresses and drops repeats', () => {
    expect(normalizeAddresses('ethereum', [A.toUpperCase().replace('0X', '0x'), A, B])).toEqual([A, B]);
  });

  it.each(['0x123', `${'a'.repeat(40)}`, `0x${'g'.repeat(40)}`, `0x${'a'.repeat(41)}`, ''])('refuses the eth address %p, naming it', (bad) => {
    const check = () => normalizeAddresses('ethereum', [A, bad]);
    expect(check).toThrow(InvalidInputError);
    expect(check).toThrow(JSON.stringify(bad));
  });

  it('keeps base58 as written, lower-cases an upper-case bech32, takes cashaddr', () => {
    const base58 = 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn';
    const bech32 = 'rltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9';
    expect(normalizeAddresses('bitcoin', [base58, bech32.toUpperCase(), bech32, 'bchreg:qpm2qsznhks23z7629mms6s4cwef74vcwvhanqgjxu'])).toEqual([
      base58,
      bech32,
      'bchreg:qpm2qsznhks23z7629mms6s4cwef74vcwvhanqgjxu',
    ]);
  });

  it.each(['short1abc', 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRf0', 'mixedCase1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9', 'a'.repeat(91), 'has space in it 12345'])(
    'refuses the Bitcoin-family address %p, naming it',
    (bad) => {
      const check = () => normalizeAddresses('bitcoin', [bad]);
      expect(check).toThrow(InvalidInputError);
      expect(check).toThrow(JSON.stringify(bad));
    },
  );

  it('lower-cases topics, drops repeats, and refuses one that is not 32 bytes of hex', () => {
    expect(normalizeTopics([TOPIC_1.replace(/1/g, 'A'), TOPIC_2, TOPIC_2])).toEqual([`0x${'a'.repeat(64)}`, TOPIC_2]);
    expect(() => normalizeTopics([`0x${'1'.repeat(63)}`])).toThrow(InvalidInputError);
    expect(() => normalizeTopics(['transfer'])).toThrow('"transfer"');
  });
});

describe('eth matching', () => {
  const tx = (hash: string, from: string, to: string | null, value = '0') => ({ hash, from, to, value });
  const log = (transactionHash: string, address: string, topics: string[], logIndex: number) => ({ transactionHash, address, topics, data: '0x01', logIndex });

  it('takes transactions from, to, or with a log of a watched address, in block order, saying what matched', () => {
    const events = matchEthereum(
      place,
      {
        transactions: [tx('0x1', B, A, '1000000000000000000'), tx('0x2', C, B), tx('0x3', A, null), tx('0x4', C, C), tx('0x5', A, A)],
        logs: [log('0x4', A, [TOPIC_1], 3), log('0x4', A, [TOPIC_2], 1), log('0x4', B, [TOPIC_1], 2)],
      },
      [A],
      [],
    );
    expect(events.map((event) => [event.hash, event.matched])).toEqual([
      ['0x1', ['to']],
      ['0x3', ['from']],
      ['0x4', ['log']],
      ['0x5', ['from', 'to']],
    ]);
    expect(events[0]).toEqual({
      type: 'transaction',
      family: 'ethereum',
      height: 7,
      blockHash: '0xblock',
      hash: '0x1',
      from: B,
      to: A,
      value: '1000000000000000000',
      matched: ['to'],
      logs: [],
    });
    // Only the watched contract's logs, by log index.
    expect(events[2]!.logs).toEqual([
      { address: A, topics: [TOPIC_2], data: '0x01', logIndex: 1 },
      { address: A, topics: [TOPIC_1], data: '0x01', logIndex: 3 },
    ]);
  });

  it('with topics, takes only logs whose topic 0 is one of them; from/to still match', () => {
    const events = matchEthereum(
      place,
      {
        transactions: [tx('0x1', C, C), tx('0x2', C, C), tx('0x3', A, C)],
        logs: [log('0x1', A, [TOPIC_1, TOPIC_2], 0), log('0x2', A, [TOPIC_2, TOPIC_1], 1), log('0x2', A, [], 2)],
      },
      [A],
      [TOPIC_1],
    );
    expect(events.map((event) => [event.hash, event.matched, event.logs.map((each) => each.logIndex)])).toEqual([
      ['0x1', ['log'], [0]],
      ['0x3', ['from'], []],
    ]);
  });

  it('finds nothing in a block that does not touch the addresses', () => {
    expect(matchEthereum(place, { transactions: [tx('0x1', B, C)], logs: [] }, [A], [])).toEqual([]);
  });
});

describe('Bitcoin-family matching', () => {
  const W = 'rltc1qwatched000000000000000000000000000000';
  const V = 'rltc1qother00000000000000000000000000000000';
  const out = (vout: number, address: string | null, value: string) => ({ vout, address, value });

  it('takes outputs paying a watched address and inputs spending tracked outputs, within the block too, and returns the new outputs', () => {
    const tracked = new Map([[outpointKey('old', 1), { txid: 'old', vout: 1, address: W, value: '2.50000000', height: 3 }]]);
    const { events, outputs } = matchBitcoin(
      place,
      [
        { txid: 'coinbase', inputs: [], outputs: [out(0, W, '50.00000000'), out(1, null, '0.00000000')] },
        {
          txid: 'spend-old',
          inputs: [
            { txid: 'old', vout: 1 },
            { txid: 'old', vout: 0 },
          ],
          outputs: [out(0, V, '2.49000000')],
        },
        { txid: 'unrelated', inputs: [{ txid: 'x', vout: 0 }], outputs: [out(0, V, '1.00000000')] },
        { txid: 'spend-new', inputs: [{ txid: 'coinbase', vout: 0 }], outputs: [out(0, V, '1.00000000'), out(1, W, '48.99000000')] },
      ],
      [W],
      tracked,
    );
    expect(events).toEqual([
      {
        type: 'transaction',
        family: 'bitcoin',
        ...place,
        txid: 'coinbase',
        matched: ['output'],
        outputs: [{ vout: 0, address: W, value: '50.00000000' }],
        inputs: [],
      },
      {
        type: 'transaction',
        family: 'bitcoin',
        ...place,
        txid: 'spend-old',
        matched: ['input'],
        outputs: [],
        inputs: [{ txid: 'old', vout: 1, address: W, value: '2.50000000' }],
      },
      {
        type: 'transaction',
        family: 'bitcoin',
        ...place,
        txid: 'spend-new',
        matched: ['output', 'input'],
        outputs: [{ vout: 1, address: W, value: '48.99000000' }],
        inputs: [{ txid: 'coinbase', vout: 0, address: W, value: '50.00000000' }],
      },
    ]);
    expect(outputs).toEqual([
      { txid: 'coinbase', vout: 0, address: W, value: '50.00000000', height: 7 },
      { txid: 'spend-new', vout: 1, address: W, value: '48.99000000', height: 7 },
    ]);
    // The map given is the caller's: not changed.
    expect([...tracked.keys()]).toEqual(['old:1']);
  });

  it('writes coin amounts with the 8 decimals of a satoshi, without float noise', () => {
    expect([0.1 + 0.2, 1e-8, 50, 20999999.99999999, 0.00012345].map(coinsOf)).toEqual([
      '0.30000000',
      '0.00000001',
      '50.00000000',
      '20999999.99999999',
      '0.00012345',
    ]);
  });
});
