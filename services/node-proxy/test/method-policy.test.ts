import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_FILTER_DIR } from '../src/config';
import { loadMethodPolicies } from '../src/json-rpc/method-policy';

const group = (methods: string[]) => ({ name: 'test', why: 'a test', sources: ['this test'], methods });

describe('loading the method rules', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'proxy-rules-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, content: unknown) => writeFileSync(path.join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));

  it('puts the operator’s files on top of the shipped ones: allowing a refused method, refusing an allowed one, adding a new one', () => {
    write('ethereum-tracing.json', { family: 'ethereum', description: 'tracing for our paying users', allowed: [group(['debug_tracetransaction', 'eth_newcall'])] });
    write('ethereum-strict.json', { family: 'ethereum', description: 'no logs here', refused: [group(['eth_getlogs', 'eth_get*'])] });
    write('bitcoin.json', { family: 'bitcoin', description: 'no estimates', refused: [group(['estimatesmartfee'])] });
    const { ethereum, bitcoin, avalanche } = loadMethodPolicies(DEFAULT_FILTER_DIR, dir);
    expect(['debug_traceTransaction', 'debug_traceCall', 'eth_newCall', 'eth_getLogs', 'eth_getBalance', 'eth_blockNumber'].map((name) => ethereum.verdict(name))).toEqual([
      'allowed',
      'refused',
      'allowed',
      'refused',
      'refused',
      'allowed',
    ]);
    expect([bitcoin.verdict('estimatesmartfee'), bitcoin.verdict('getblockcount')]).toEqual(['refused', 'allowed']);
    expect(avalanche.verdict('debug_traceTransaction')).toBe('refused');
  });

  it('stops start-up naming the file and the reason: not JSON, no groups, an allowed prefix, a wrong family field', () => {
    const cases: [string, unknown, string][] = [
      ['broken.json', '{"family": "bitcoin",', 'broken.json'],
      ['empty.json', { family: 'bitcoin', description: 'nothing' }, 'the file has no groups of methods'],
      ['prefix.json', { family: 'ethereum', description: 'all reads', allowed: [group(['eth_get*'])] }, 'no prefixes in the allowed list'],
      ['upper.json', { family: 'ethereum', description: 'case', allowed: [group(['eth_getBalance'])] }, 'a lower-case method name'],
      ['family.json', { family: 'solana', description: 'other', allowed: [group(['getslot'])] }, 'family'],
    ];
    for (const [name, content, reason] of cases) {
      write(name, content);
      expect(() => loadMethodPolicies(DEFAULT_FILTER_DIR, dir)).toThrow(path.join(dir, name));
      expect(() => loadMethodPolicies(DEFAULT_FILTER_DIR, dir)).toThrow(reason);
      rmSync(path.join(dir, name));
    }
    expect(() => loadMethodPolicies(DEFAULT_FILTER_DIR, path.join(dir, 'missing'))).toThrow(path.join(dir, 'missing'));
  });

  it('refuses a layer that both allows and refuses a name, naming it', () => {
    write('a.json', { family: 'bitcoin', description: 'allow', allowed: [group(['getpeerinfo'])] });
    write('b.json', { family: 'bitcoin', description: 'refuse', refused: [group(['getpeer*'])] });
    expect(() => loadMethodPolicies(DEFAULT_FILTER_DIR, dir)).toThrow('getpeerinfo is both allowed and refused (getpeer*)');
  });

  it('stops start-up when a shipped file is missing', () => {
    write('bitcoin.json', { family: 'bitcoin', description: 'one', allowed: [group(['getblockcount'])] });
    expect(() => loadMethodPolicies(dir)).toThrow(path.join(dir, 'ethereum.json'));
  });

  it('loads the shipped rules, which allow and refuse no name both', () => {
    const policies = loadMethodPolicies(DEFAULT_FILTER_DIR);
    expect(Object.keys(policies)).toEqual(['bitcoin', 'ethereum', 'avalanche']);
  });
});
