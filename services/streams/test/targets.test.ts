import { TargetPolicy, TargetRefusedError } from '../src/domain/targets';
import { retryDelayMs } from '../src/domain/backoff';
import { signatureHeader, verifySignature } from '../src/domain/signature';

const none = TargetPolicy.fromSetting('');
const loopback = TargetPolicy.fromSetting('loopback');

async function refusal(policy: TargetPolicy, url: string): Promise<string> {
  const error = await policy.check(url).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(TargetRefusedError);
  return (error as Error).message;
}

describe('webhook targets', () => {
  it.each([
    ['https://10.0.0.5/hook', 'private address (10.0.0.5)'],
    ['https://172.16.1.1/hook', 'private address'],
    ['https://100.64.0.1/hook', 'carrierGradeNat address'],
    ['https://169.254.169.254/latest/meta-data', 'metadata address (169.254.169.254)'],
    ['https://169.254.10.1/hook', 'linkLocal address'],
    ['https://[fd00:ec2::254]/hook', 'metadata address'],
    ['https://[fd00::1]/hook', 'uniqueLocal address'],
    ['https://[fe80::1]/hook', 'linkLocal address'],
    ['https://[::1]/hook', 'loopback address'],
    ['https://[::ffff:127.0.0.1]/hook', 'loopback address (127.0.0.1)'],
    ['https://[64:ff9b::a00:1]/hook', 'private address (64:ff9b::a00:1)'],
    ['https://0.0.0.0/hook', 'unspecified address'],
    ['https://224.0.0.1/hook', 'multicast address'],
    ['https://localhost/hook', 'loopback address'],
    ['http://127.0.0.1:8080/hook', 'loopback address (127.0.0.1)'],
  ])('refuses %s without an allowance', async (url, why) => {
    expect(await refusal(none, url)).toContain(why);
  });

  it('refuses what no URL rule allows, whatever the allowance', async () => {
    expect(await refusal(loopback, 'ftp://127.0.0.1/x')).toContain('only https');
    expect(await refusal(loopback, 'https://user:pw@127.0.0.1/x')).toContain('credentials');
    expect(await refusal(loopback, `https://127.0.0.1/${'a'.repeat(2048)}`)).toContain('2048');
    expect(await refusal(loopback, 'not a url')).toContain('only https');
    // Plain http across the internet is refused; https to a public address is fine.
    expect(await refusal(none, 'http://93.184.215.14/hook')).toContain('only https to a public address');
    await expect(none.check('https://93.184.215.14/hook')).resolves.toMatchObject({ address: '93.184.215.14', family: 4 });
    // loopback does not open the metadata service nor private ranges.
    expect(await refusal(loopback, 'https://169.254.169.254/')).toContain('metadata');
    expect(await refusal(loopback, 'https://10.1.2.3/')).toContain('private');
  });

  it('allows loopback (names too), private and CIDR ranges when the setting says so', async () => {
    await expect(loopback.check('http://127.0.0.1:8080/hook')).resolves.toMatchObject({ address: '127.0.0.1', family: 4 });
    await expect(loopback.check('http://[::1]:8080/hook')).resolves.toMatchObject({ address: '::1', family: 6 });
    await expect(loopback.check('http://localhost:8080/hook')).resolves.toMatchObject({ url: new URL('http://localhost:8080/hook') });
    await expect(TargetPolicy.fromSetting('private').check('https://10.0.0.5/')).resolves.toMatchObject({ address: '10.0.0.5' });
    await expect(TargetPolicy.fromSetting('private').check('https://[fd00:ec2::254]/')).rejects.toThrow('metadata');
    const cidr = TargetPolicy.fromSetting(' 192.168.5.0/24 ,loopback');
    await expect(cidr.check('https://192.168.5.9/')).resolves.toMatchObject({ address: '192.168.5.9' });
    expect(await refusal(cidr, 'https://192.168.6.9/')).toContain('private');
  });

  it('refuses a bad setting', () => {
    expect(() => TargetPolicy.fromSetting('loopback,everything')).toThrow("'everything'");
  });
});

describe('signatures and backoff', () => {
  const at = new Date('2026-11-28T09:00:00Z');

  it('signs t.body with HMAC-SHA256 and verifies within the replay window only', () => {
    const header = signatureHeader('whsec_x', '{"a":1}', at);
    expect(header).toMatch(/^t=1795856400,v1=[0-9a-f]{64}$/);
    expect(verifySignature(header, '{"a":1}', 'whsec_x', new Date(at.getTime() + 299_000))).toBe(true);
    expect(verifySignature(header, '{"a":2}', 'whsec_x', at)).toBe(false);
    expect(verifySignature(header, '{"a":1}', 'whsec_y', at)).toBe(false);
    expect(verifySignature(header, '{"a":1}', 'whsec_x', new Date(at.getTime() + 301_000))).toBe(false);
    expect(verifySignature('garbage', '{"a":1}', 'whsec_x', at)).toBe(false);
  });

  it('doubles the retry delay up to the maximum, with ±20 % jitter', () => {
    expect([1, 2, 3, 4, 20].map((attempts) => retryDelayMs(attempts, 1000, 5000, () => 0.5))).toEqual([1000, 2000, 4000, 5000, 5000]);
    expect(retryDelayMs(1, 1000, 5000, () => 0)).toBe(800);
    expect(retryDelayMs(1, 1000, 5000, () => 1)).toBe(1200);
  });
});
