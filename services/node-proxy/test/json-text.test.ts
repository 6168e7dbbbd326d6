import { checkRequest, mergedBatchText, parseNodeBatchAnswer, serialise } from '../src/json-rpc/json-rpc';
import { DEFAULT_FILTER_DIR } from '../src/config';
import { parseJson, stringifyJson, TooDeepError } from '../src/json-rpc/json-text';
import { loadMethodPolicies } from '../src/json-rpc/method-policy';

const { bitcoin, ethereum } = loadMethodPolicies(DEFAULT_FILTER_DIR);

describe('reading JSON bodies', () => {
  it('refuses nesting past the limit from the raw text, however deep, and counts only brackets outside strings', () => {
    expect(() => parseJson('['.repeat(65) + ']'.repeat(65), 64)).toThrow(TooDeepError);
    expect(() => parseJson('['.repeat(1_000_000), 64)).toThrow(TooDeepError);
    expect(parseJson('['.repeat(64) + ']'.repeat(64), 64).value).toEqual(expect.any(Array));
    const inString = JSON.stringify({ a: '[[[[{{{{\\"[[[[', b: ['"]]]"'] });
    expect(parseJson(inString, 2).value).toEqual({ a: '[[[[{{{{\\"[[[[', b: ['"]]]"'] });
  });

  it('keeps numbers JSON.parse would change as written, and leaves the others plain numbers', () => {
    for (const text of ['12345678901234567890', '1e400', '-0', '1.50', '9007199254740993', '0.00000001', '1E5', '-12345678901234567']) {
      const parsed = parseJson(`{"id":${text},"params":[${text}, "1e400"]}`);
      expect([text, parsed.lossless, stringifyJson(parsed.value, parsed.lossless)]).toEqual([text, true, `{"id":${text},"params":[${text},"1e400"]}`]);
    }
    const plain = parseJson('{"id":1,"params":[0.5,-3,1e-7,"12345678901234567890",0,-120,999999999999999]}');
    expect(plain).toEqual({ value: { id: 1, params: [0.5, -3, 1e-7, '12345678901234567890', 0, -120, 999999999999999] }, lossless: false, canonical: false });
  });

  it('calls a text canonical only when JSON.stringify writes what was parsed back as that very text', () => {
    const canonical = [
      '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}',
      '[{"id":1,"method":"getblock","params":["00ff",2]},{"id":"x","method":"getblockcount"}]',
      '{"a":{"b":[{"c":null,"d":true,"e":false}],"f":-12.5,"g":1e-7,"h":"Ω ☃ 😀 /"},"__proto__":{"x":1},"-1":0,"":""}',
      '"just a string"',
      '[]',
    ];
    const not = [
      '{"jsonrpc": "2.0","id":1}', // whitespace
      '\n{"id":1}',
      '{"id":"a\\/b"}', // an escape JSON.stringify would not write
      '{"id":"\\u0041"}',
      '{"id":"a\\nb"}', // one it would: still the long way
      '{"id":1.50}',
      '{"id":-0}',
      '{"id":1E5}',
      '{"b":1,"1":2}', // an integer-like key: JavaScript lists it first
      '{"method":"stop","method":"getblockcount"}', // a key twice
      '{"a":{"x":1,"x":2},"b":3}',
    ];
    for (const text of canonical) expect([text, parseJson(text, 64).canonical]).toEqual([text, true]);
    for (const text of not) expect([text, parseJson(text, 64).canonical]).toEqual([text, false]);
    // Without a depth bound the value is not walked, and nothing is called canonical.
    expect(parseJson(canonical[0]!).canonical).toBe(false);
    expect(parseJson('"\ud800"', 64).canonical).toBe(false); // a lone surrogate, which JSON.stringify escapes
  });

  it('forwards exactly what JSON.stringify writes of what was checked, for texts written every way JSON allows', () => {
    // A seeded walk over the ways of writing JSON: whitespace, escapes, number forms, duplicate and integer-like keys.
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const space = () => (random() < 0.1 ? pick([' ', '\n', '\t', '\r\n ']) : '');
    const strings = ['"a"', '"method"', '"eth_call"', '"Ω"', '"a\\"b"', '"\\u00e9"', '"\\/"', '""', '"0x1e3"', '"1"', '"7"'];
    const keys = ['"a"', '"b"', '"method"', '"7"', '"\\u0061"'];
    const numbers = ['0', '-1', '12', '1.5', '1.50', '-0', '1e3', '1E-7', '12345678901234567890', '0.1', '9007199254740991'];
    const value = (depth: number): string => {
      const kind = depth > 3 ? pick(['s', 'n', 'l']) : pick(['s', 'n', 'l', 'a', 'o', 'o']);
      if (kind === 's') return pick(strings);
      if (kind === 'n') return pick(numbers);
      if (kind === 'l') return pick(['true', 'false', 'null']);
      const count = Math.floor(random() * 4);
      const items = Array.from({ length: count }, () => (kind === 'a' ? value(depth + 1) : `${space()}${pick(keys)}${space()}:${space()}${value(depth + 1)}`));
      return kind === 'a' ? `[${space()}${items.join(`${space()},`)}${space()}]` : `{${items.join(',')}${space()}}`;
    };
    let canonical = 0;
    for (let index = 0; index < 3000; index++) {
      const text = value(0);
      const parsed = parseJson(text, 64);
      const written = stringifyJson(parsed.value, parsed.lossless);
      if (parsed.canonical) {
        canonical++;
        expect([text, written]).toEqual([text, text]);
      }
      const checked = checkRequest(`{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[${text}]}`, ethereum, 100);
      const params = checked.outcome === 'forward' ? checked.body : undefined;
      expect([text, params]).toEqual([text, `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[${written}]}`]);
    }
    // Both ways were taken many times.
    expect(canonical).toBeGreaterThan(300);
    expect(canonical).toBeLessThan(2700);
  });

  it('resolves duplicate keys on the lossless path as JSON.parse does: the last one', () => {
    const parsed = parseJson('{"id":1e400,"method":"stop","method":"getblockcount"}');
    expect(stringifyJson(parsed.value, parsed.lossless)).toBe('{"id":1e400,"method":"getblockcount"}');
  });

  it('answers a body nested past the limit with -32600 (400) in the family’s dialect', () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expect(checkRequest(deep, ethereum, 100)).toEqual({
      outcome: 'refused',
      status: 400,
      answer: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: the body is nested deeper than 64 levels' } },
      refusedCount: 1,
      unknown: [],
      refusedMethods: [],
    });
    expect(checkRequest('[{"method":"getblockcount","params":[[[[1]]]]}]', bitcoin, 100, 3)).toMatchObject({ outcome: 'refused', status: 400 });
  });

  it('forwards and answers ids and params exactly as sent, also in a merged batch', () => {
    const forwarded = checkRequest('{"jsonrpc":"1.0","id":12345678901234567890,"method":"getblockhash","params":[1.50]}', bitcoin, 100);
    expect(forwarded).toMatchObject({
      outcome: 'forward',
      body: '{"jsonrpc":"1.0","id":12345678901234567890,"method":"getblockhash","params":[1.50]}',
      lossless: true,
    });
    const refused = checkRequest('{"id":1e400,"method":"stop"}', bitcoin, 100);
    expect(serialise(refused, refused.outcome === 'refused' && refused.answer)).toBe(
      '{"result":null,"error":{"code":-32601,"message":"method \\"stop\\" is not allowed on this hosted node","data":{"refusedBy":"platform","method":"stop","message":"the method \\"stop\\" does not exist/is not available on this hosted node"}},"id":1e400}',
    );

    const batch = checkRequest('[{"id":-0,"method":"getblockcount"},{"id":1.50,"method":"stop"},{"id":"s","method":"getbestblockhash"}]', bitcoin, 100);
    if (batch.outcome !== 'forward' || !batch.batch) throw new Error('expected a forwarded batch');
    expect(batch.body).toBe('[{"id":-0,"method":"getblockcount"},{"id":"s","method":"getbestblockhash"}]');
    // The node answers in another order, with its own exact numbers.
    const node = parseNodeBatchAnswer('[{"result":"00ff","error":null,"id":"s"},{"result":12345678901234567890,"error":null,"id":-0}]');
    expect(mergedBatchText(batch, node)).toBe(
      '[{"result":12345678901234567890,"error":null,"id":-0},{"result":null,"error":{"code":-32601,"message":"method \\"stop\\" is not allowed on this hosted node","data":{"refusedBy":"platform","method":"stop","message":"the method \\"stop\\" does not exist/is not available on this hosted node"}},"id":1.50},{"result":"00ff","error":null,"id":"s"}]',
    );
  });

  it('keeps integer ids past 2^53 apart when it matches a reordered batch answer', () => {
    // Both ids are the same double; matched by value they would swap answers.
    const batch = checkRequest(
      '[{"id":12345678901234567890,"method":"getblockhash","params":[1]},{"id":12345678901234567891,"method":"getblockhash","params":[2]},{"id":3,"method":"stop"}]',
      bitcoin,
      100,
    );
    if (batch.outcome !== 'forward' || !batch.batch) throw new Error('expected a forwarded batch');
    const node = parseNodeBatchAnswer('[{"result":"hash2","error":null,"id":12345678901234567891},{"result":"hash1","error":null,"id":12345678901234567890}]');
    expect(mergedBatchText(batch, node)).toBe(
      '[{"result":"hash1","error":null,"id":12345678901234567890},{"result":"hash2","error":null,"id":12345678901234567891},{"result":null,"error":{"code":-32601,"message":"method \\"stop\\" is not allowed on this hosted node","data":{"refusedBy":"platform","method":"stop","message":"the method \\"stop\\" does not exist/is not available on this hosted node"}},"id":3}]',
    );
  });
});
