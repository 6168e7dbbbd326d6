import { allowsAddress, compileAccess } from '../src/access/access-rules';

const rules = (ipAllowlist: string[]) => compileAccess({ ipAllowlist, originAllowlist: [], refusedMethods: [], ratePerSecond: null, maxAnswerBytes: null });

describe("a node's IP allowlist", () => {
  it('takes addresses in its ranges, IPv4 (also as a dual-stack socket writes it) and IPv6, and refuses the rest', () => {
    const allowlist = rules(['203.0.113.0/24', '2001:db8::/32']);
    expect(['203.0.113.7', '::ffff:203.0.113.7', '2001:db8::1'].map((address) => allowsAddress(allowlist, address))).toEqual([true, true, true]);
    expect(['203.0.114.7', '2001:db9::1', 'not-an-address', ''].map((address) => allowsAddress(allowlist, address))).toEqual([false, false, false, false]);
    // Asked again, the remembered answers are the same.
    expect([allowsAddress(allowlist, '203.0.113.7'), allowsAddress(allowlist, '203.0.114.7')]).toEqual([true, false]);
  });

  it('takes any address without one, and answers each new rules object afresh', () => {
    expect(allowsAddress(undefined, '198.51.100.1')).toBe(true);
    expect(allowsAddress(rules(['198.51.100.0/24']), '198.51.100.1')).toBe(true);
    expect(allowsAddress(rules(['192.0.2.0/24']), '198.51.100.1')).toBe(false);
  });

  it('stays right past the number of addresses it remembers', () => {
    const allowlist = rules(['10.0.0.0/16']);
    for (let index = 0; index < 3000; index += 1) {
      const address = `10.${index % 2}.${Math.floor(index / 256) % 256}.${index % 256}`;
      expect([address, allowsAddress(allowlist, address)]).toEqual([address, index % 2 === 0]);
    }
  });
});
