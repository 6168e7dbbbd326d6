import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compileAccess, policyFor } from '../src/access/access-rules';
import { DEFAULT_FILTER_DIR } from '../src/config';
import { checkRequest } from '../src/json-rpc/json-rpc';
import { loadMethodLists, loadMethodPolicies } from '../src/json-rpc/method-policy';

const group = (methods: string[]) => ({ name: 'test', why: 'a test', sources: ['this test'], methods });

describe('loading the method rules', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'proxy-rules-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, content: unknown) => writeFileSync(path.join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));

  it('puts the operator’s files on top of the shipped ones: allowing a refused method, refusing an allowed one, adding a new one', () => {
    write('ethereum-tracing.json', {
      family: 'ethereum',
      description: 'tracing for our paying users',
      allowed: [group(['debug_tracetransaction', 'eth_newcall'])],
    });
    write('ethereum-strict.json', { family: 'ethereum', description: 'no logs here', refused: [group(['eth_getlogs', 'eth_get*'])] });
    write('bitcoin.json', { family: 'bitcoin', description: 'no estimates', refused: [group(['estimatesmartfee'])] });
    const { ethereum, bitcoin, avalanche } = loadMethodPolicies(DEFAULT_FILTER_DIR, dir);
    expect(
      ['debug_traceTransaction', 'debug_traceCall', 'eth_newCall', 'eth_getLogs', 'eth_getBalance', 'eth_blockNumber'].map((name) => ethereum.verdict(name)),
    ).toEqual(['allowed', 'refused', 'allowed', 'refused', 'refused', 'allowed']);
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

  it('says which methods write (their group says so), the shipped ones and an operator’s: a pool never retries them', () => {
    write('bitcoin.json', { family: 'bitcoin', description: 'a relay of our own', allowed: [{ ...group(['sendourpackage']), writes: true }] });
    const { bitcoin, ethereum } = loadMethodPolicies(DEFAULT_FILTER_DIR, dir);
    const writes = (policy: typeof bitcoin, names: string[]) => names.filter((name) => policy.isWrite(name));
    expect(writes(bitcoin, ['sendrawtransaction', 'submitpackage', 'testmempoolaccept', 'getblockcount', 'sendourpackage'])).toEqual([
      'sendrawtransaction',
      'submitpackage',
      'sendourpackage',
    ]);
    // The dev layer's mining and state changes write too (on the dev policy, where they are allowed).
    expect(writes(ethereum.dev, ['eth_sendrawtransaction', 'eth_call', 'eth_getbalance', 'anvil_mine', 'evm_revert', 'eth_sendtransaction'])).toEqual([
      'eth_sendrawtransaction',
      'anvil_mine',
      'evm_revert',
      'eth_sendtransaction',
    ]);
    expect(bitcoin.dev.isWrite('generatetodescriptor')).toBe(true);
  });

  it('loads the shipped rules, which allow and refuse no name both', () => {
    const policies = loadMethodPolicies(DEFAULT_FILTER_DIR);
    expect(Object.keys(policies)).toEqual(['bitcoin', 'ethereum', 'avalanche']);
  });
});

describe('the dev layer: funding and mining on dev nodes only', () => {
  const policies = loadMethodPolicies(DEFAULT_FILTER_DIR);
  const lists = loadMethodLists(DEFAULT_FILTER_DIR);
  const families = ['bitcoin', 'ethereum', 'avalanche'] as const;

  it.each(families)(
    '%s: every dev-layer method is refused on purpose on a real-network node and allowed on a dev node; every exclusion refused on both',
    (family) => {
      const real = policies[family];
      const dev = real.forNode(true);
      expect([real.forNode(false), real.forNode(undefined), dev.forNode(true)]).toEqual([real, real, dev]);
      for (const name of lists[family].dev) expect([name, real.verdict(name), dev.verdict(name)]).toEqual([name, 'refused', 'allowed']);
      for (const entry of lists[family].devExcluded) {
        const name = entry.endsWith('*') ? `${entry.slice(0, -1)}anything` : entry;
        expect([name, real.verdict(name), dev.verdict(name)]).toEqual([name, 'refused', 'refused']);
      }
      // What the dev layer does not name is decided alike on both.
      for (const name of [...lists[family].allowed, ...lists[family].refused.filter((entry) => !entry.endsWith('*'))].filter(
        (name) => !lists[family].dev.includes(name),
      )) {
        expect([name, dev.verdict(name)]).toEqual([name, real.verdict(name)]);
      }
    },
  );

  it('has the issue’s methods: anvil’s funding, mining, clock, snapshots and funded accounts; regtest’s generate calls', () => {
    const eth = policies.ethereum;
    const ethDev = [
      'anvil_setBalance',
      'anvil_mine',
      'evm_mine',
      'evm_increaseTime',
      'evm_setNextBlockTimestamp',
      'evm_snapshot',
      'evm_revert',
      'anvil_setNonce',
      'anvil_impersonateAccount',
      'anvil_stopImpersonatingAccount',
      'eth_accounts',
      'eth_sendTransaction',
    ];
    for (const name of ethDev) expect([name, eth.verdict(name), eth.dev.verdict(name)]).toEqual([name, 'refused', 'allowed']);
    const btc = policies.bitcoin;
    for (const name of ['generatetoaddress', 'generateblock', 'generatetodescriptor'])
      expect([name, btc.verdict(name), btc.dev.verdict(name)]).toEqual([name, 'refused', 'allowed']);
    // Never on a dev node either: another host, a file, stopping, the platform's own records.
    for (const name of [
      'anvil_reset',
      'hardhat_reset',
      'anvil_setRpcUrl',
      'anvil_dumpState',
      'anvil_loadState',
      'anvil_setChainId',
      'anvil_setLoggingEnabled',
      'eth_sendTransactionSync',
      'hardhat_setBalance',
      'anvil_nodeInfo',
    ]) {
      expect([name, eth.dev.verdict(name)]).toEqual([name, 'refused']);
    }
    for (const name of ['stop', 'generate', 'addnode', 'setnetworkactive', 'setmocktime', 'submitblock', 'invalidateblock'])
      expect([name, btc.dev.verdict(name)]).toEqual([name, 'refused']);
    // The avalanche family has no dev layer: its dev policy is its policy.
    expect(policies.avalanche.dev).toBe(policies.avalanche);
    expect(policies.avalanche.dev.verdict('dev.registerValidator')).toBe('refused');
  });

  it('says why for each group, and cites its sources', () => {
    for (const family of families) {
      const file = JSON.parse(readFileSync(path.join(DEFAULT_FILTER_DIR, `${family}.json`), 'utf8')) as {
        dev?: { why: string; sources: string[] }[];
        devExcluded: { why: string; sources: string[] }[];
      };
      for (const { why, sources } of [...(file.dev ?? []), ...file.devExcluded]) expect([why.length > 80, sources.length > 0]).toEqual([true, true]);
    }
  });

  describe('an operator’s folder', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'proxy-rules-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    const write = (name: string, content: unknown) => writeFileSync(path.join(dir, name), JSON.stringify(content));

    it('adds to the dev layer, and takes out of it what it refuses or excludes', () => {
      write('ethereum-dev.json', {
        family: 'ethereum',
        description: 'hardhat users',
        dev: [group(['hardhat_setbalance'])],
        devExcluded: [group(['anvil_setcode'])],
        refused: [group(['anvil_setstorageat'])],
      });
      write('bitcoin-dev.json', { family: 'bitcoin', description: 'allowed everywhere', allowed: [group(['generateblock'])] });
      const { ethereum, bitcoin } = loadMethodPolicies(DEFAULT_FILTER_DIR, dir);
      expect([ethereum.verdict('hardhat_setBalance'), ethereum.dev.verdict('hardhat_setBalance')]).toEqual(['refused', 'allowed']);
      expect([ethereum.verdict('anvil_setCode'), ethereum.dev.verdict('anvil_setCode')]).toEqual(['refused', 'refused']);
      expect([ethereum.verdict('anvil_setStorageAt'), ethereum.dev.verdict('anvil_setStorageAt')]).toEqual(['refused', 'refused']);
      expect([ethereum.verdict('anvil_setBalance'), ethereum.dev.verdict('anvil_setBalance')]).toEqual(['refused', 'allowed']);
      expect([bitcoin.verdict('generateblock'), bitcoin.dev.verdict('generateblock')]).toEqual(['allowed', 'allowed']);
    });

    it('stops start-up on a dev layer that is also allowed, or excluded, in its own layer, or names a prefix', () => {
      const cases: [string, unknown, string][] = [
        [
          'twice.json',
          { family: 'ethereum', description: 'x', allowed: [group(['anvil_mine'])], dev: [group(['anvil_mine'])] },
          'anvil_mine is both allowed and in the dev layer',
        ],
        [
          'excluded.json',
          { family: 'ethereum', description: 'x', dev: [group(['anvil_reset'])], devExcluded: [group(['anvil_re*'])] },
          'anvil_reset is both in the dev layer and excluded from it (anvil_re*)',
        ],
        ['prefix.json', { family: 'ethereum', description: 'x', dev: [group(['anvil_*'])] }, 'no prefixes in the allowed list'],
      ];
      for (const [name, content, reason] of cases) {
        write(name, content);
        expect(() => loadMethodPolicies(DEFAULT_FILTER_DIR, dir)).toThrow(path.join(dir, name));
        expect(() => loadMethodPolicies(DEFAULT_FILTER_DIR, dir)).toThrow(reason);
        rmSync(path.join(dir, name));
      }
    });
  });

  it('keeps the owner’s refused methods on top of the dev layer, and says who refused a call', () => {
    const rules = compileAccess({ ipAllowlist: [], originAllowlist: [], refusedMethods: ['anvil_setbalance'], ratePerSecond: null, maxAnswerBytes: null })!;
    const ethereum = policies.ethereum;
    const onDev = policyFor(ethereum.forNode(true), rules);
    const onReal = policyFor(ethereum.forNode(false), rules);
    expect([onDev.verdict('anvil_setBalance'), onDev.verdict('evm_mine'), onReal.verdict('evm_mine'), onReal.verdict('anvil_setBalance')]).toEqual([
      'refusedByOwner',
      'allowed',
      'refused',
      'refusedByOwner',
    ]);
    // Made once per rules and platform policy.
    expect(policyFor(ethereum.forNode(true), rules)).toBe(policyFor(ethereum.forNode(true), rules));
    const call = (method: string) =>
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method, params: [] },
        { jsonrpc: '2.0', id: 2, method: 'eth_chainId' },
      ]);
    const answers = (policy: typeof onDev, method: string) => {
      const checked = checkRequest(call(method), policy, 100);
      return checked.outcome === 'forward' && checked.batch ? checked.answers[0] : checked;
    };
    expect(answers(onDev, 'anvil_setBalance')).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32601,
        message: 'method "anvil_setBalance" is not allowed on this hosted node',
        data: {
          refusedBy: 'accessRule',
          method: 'anvil_setBalance',
          message: 'the method "anvil_setBalance" does not exist/is not available on this hosted node',
        },
      },
    });
    expect(answers(onReal, 'evm_mine')).toMatchObject({ error: { code: -32601, data: { refusedBy: 'platform', method: 'evm_mine' } } });
    expect(answers(onDev, 'evm_mine')).toBeUndefined();
  });
});
