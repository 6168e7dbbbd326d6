import { lookup } from 'node:dns/promises';
import { TargetPolicy, TargetRefusedError } from '../src/domain/targets';
import { retryDelayMs } from '../src/domain/backoff';
import { signatureHeader, verifySignature } from '../src/domain/signature';

describe('webhook target policy', () => {
  const strict = TargetPolicy.fromSetting('');
  const loopback = TargetPolicy.fromSetting('loopback');

  it.each([
    ['https://10.0.0.5/hook', /private address \(10\.0\.0\.5\)/],
    ['https://169.254.169.254/latest/meta-data', /metadata service address/],
    ['https://169.254.10.1/hook', /link-local address/],
    ['https://[::1]/hook', /loopback address/],
    ['https://[::ffff:127.0.0.1]/hook', /loopback/],
    ['https://[64:ff9b::a00:5]/hook', /private/],
    ['https://[fd00:ec2::254]/hook', /metadata service address/],
    ['https://[fd00::1]/hook', /private/],
    ['https://100.64.1.1/', /private/],
    ['https://0.0.0.0/', /unspecified/],
    ['https://224.0.0.1/', /multicast/],
    ['http://93.184.215.14/hook', /only https/],
    ['https://user:pw@93.184.215.14/hook', /credentials/],
    ['ftp://93.184.215.14/x', /only https/],
    [`https://93.184.215.14/${'a'.repeat(2048)}`, /longer than 2048/],
  ])('refuses %#: %p', async (url, why) => {
    await expect(strict.check(url)).rejects.toThrow(TargetRefusedError);
    await expect(strict.check(url)).rejects.toThrow(why);
  });

  it('refuses a name resolving to 127.0.0.1 unless loopback is allowed, then pins that address', async () => {
    const resolved = await lookup('localhost', { all: true });
    expect(resolved.length).toBeGreaterThan(0);
    await expect(strict.check('http://localhost:8080/hook')).rejects.toThrow(/loopback address/);
    const checked = await loopback.check('http://localhost:8080/hook');
    expect(resolved.map((r) => r.address)).toContain(checked.address);
    expect(checked.url.hostname).toBe('localhost');
    await expect(loopback.check('http://127.0.0.1:1/x')).resolves.toMatchObject({ address: '127.0.0.1', family: 4 });
    // loopback does not open private or metadata addresses
    await expect(loopback.check('https://10.1.2.3/')).rejects.toThrow(/private/);
    await expect(loopback.check('https://169.254.169.254/')).rejects.toThrow(/metadata/);
  });

  it('allows public https, private with `private`, and CIDRs; refuses bad settings', async () => {
    await expect(strict.check('https://93.184.215.14/hook')).resolves.toMatchObject({ address: '93.184.215.14', family: 4 });
    await expect(TargetPolicy.fromSetting('private').check('http://10.0.0.5/')).resolves.toMatchObject({ address: '10.0.0.5' });
    // `private` opens fd00::/8 but never the metadata service inside it.
    await expect(TargetPolicy.fromSetting('private').check('http://[fd00::5]/')).resolves.toMatchObject({ family: 6 });
    await expect(TargetPolicy.fromSetting('private').check('http://[fd00:ec2::254]/')).rejects.toThrow(/metadata service/);
    await expect(TargetPolicy.fromSetting('169.254.0.0/16').check('http://169.254.169.254/')).resolves.toMatchObject({ family: 4 });
    expect(() => TargetPolicy.fromSetting('loopback, nonsense')).toThrow(/nonsense/);
  });
});

describe('signatures and backoff', () => {
  it('signs t.body with HMAC-SHA256 and verifies within the window only', () => {
    const at = new Date('2026-11-28T08:00:00Z');
    const header = signatureHeader('whsec_x', '{"a":1}', at);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature(header, '{"a":1}', 'whsec_x', at)).toBe(true);
    expect(verifySignature(header, '{"a":2}', 'whsec_x', at)).toBe(false);
    expect(verifySignature(header, '{"a":1}', 'whsec_y', at)).toBe(false);
    expect(verifySignature(header, '{"a":1}', 'whsec_x', new Date(at.getTime() + 301_000))).toBe(false);
  });

  it('doubles from base up to max with ±20 % jitter', () => {
    expect(retryDelayMs(1, 1000, 60_000, () => 0.5)).toBe(1000);
    expect(retryDelayMs(4, 1000, 60_000, () => 0.5)).toBe(8000);
    expect(retryDelayMs(20, 1000, 60_000, () => 0.5)).toBe(60_000);
    expect(retryDelayMs(1, 1000, 60_000, () => 0)).toBe(800);
    expect(retryDelayMs(1, 1000, 60_000, () => 1)).toBe(1200);
  });
});
