import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '@cloud/http';
import { DEFAULT_FILTER_DIR } from '../src/config';
import { checkRequest, mergeBatchAnswers } from '../src/json-rpc/json-rpc';
import { loadMethodPolicies } from '../src/json-rpc/method-policy';
import { avalancheCallKind } from '../src/server/avalanche-api';

const { avalanche } = loadMethodPolicies(DEFAULT_FILTER_DIR);

function refusalOf(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('the paths an avalanche node serves', () => {
  it.each([
    '/ext/info',
    '/ext/health',
    '/ext/bc/P',
    '/ext/bc/X',
    '/ext/bc/C/rpc',
    '/ext/bc/C/avax',
    '/ext/index/X/tx',
    '/ext/index/X/vtx',
    '/ext/index/X/block',
    '/ext/index/P/block',
    '/ext/index/C/block',
  ])('POST %s is JSON-RPC', (apiPath) => expect(avalancheCallKind(apiPath, 'POST')).toBe('json-rpc'));

  it.each(['/ext/health', '/ext/health/health', '/ext/health/liveness', '/ext/health/readiness'])('GET %s is passed through', (apiPath) => {
    expect(avalancheCallKind(apiPath, 'GET')).toBe('get');
  });

  it.each([
    '/ext/admin',
    '/ext/keystore',
    '/ext/ipcs',
    '/ext/auth',
    '/ext/metrics',
    '/ext/dev',
    '/ext/bc/X/wallet',
    '/ext/bc/C/admin',
    '/ext/bc/C/ws',
    '/ext/bc/X/events',
    '/ext/bc/P/',
    '/EXT/INFO',
    '/rest/chaininfo.json',
  ])('%s is not served, and the answer names it', (apiPath) => {
    const refused = refusalOf(() => avalancheCallKind(apiPath, 'POST'));
    expect(refused).toMatchObject({ status: 404, code: 'NotFound' });
    expect(refused.message).toContain(`nothing is served at ${apiPath} on this node`);
  });

  it('answers / with the paths there are', () => {
    const refused = refusalOf(() => avalancheCallKind('/', 'POST'));
    expect(refused).toMatchObject({ status: 404, code: 'NotFound' });
    expect(refused.message).toContain('POST /ext/bc/P');
    expect(refused.message).toContain('GET|POST /ext/health');
  });

  it('refuses another HTTP method with 405 and Allow', () => {
    expect(refusalOf(() => avalancheCallKind('/ext/bc/P', 'GET'))).toMatchObject({ status: 405, code: 'MethodNotAllowed', headers: { allow: 'POST' } });
    expect(refusalOf(() => avalancheCallKind('/ext/health/liveness', 'POST'))).toMatchObject({ status: 405, headers: { allow: 'GET' } });
    expect(refusalOf(() => avalancheCallKind('/ext/health', 'DELETE'))).toMatchObject({ status: 405, headers: { allow: 'GET, POST' } });
  });
});

describe('the avalanche method rules', () => {
  it.each([
    [
      '/ext/bc/P',
      [
        'platform.exportKey',
        'platform.importKey',
        'platform.createAddress',
        'platform.listAddresses',
        'platform.addValidator',
        'platform.addDelegator',
        'platform.addSubnetValidator',
        'platform.createSubnet',
        'platform.createBlockchain',
        'platform.exportAVAX',
        'platform.importAVAX',
      ],
    ],
    [
      '/ext/bc/X',
      [
        'avm.send',
        'avm.sendMultiple',
        'avm.createAddress',
        'avm.exportKey',
        'avm.importKey',
        'avm.export',
        'avm.import',
        'avm.exportAVAX',
        'avm.mint',
        'avm.createAsset',
        'avm.createFixedCapAsset',
        'avm.createVariableCapAsset',
        'avm.createNFTAsset',
        'avm.mintNFT',
        'avm.sendNFT',
        'avm.listAddresses',
        'wallet.send',
        'wallet.issueTx',
      ],
    ],
    ['/ext/bc/C/avax', ['avax.export', 'avax.import', 'avax.exportKey', 'avax.importKey', 'avax.exportAVAX', 'avax.importAVAX']],
    [
      '/ext/bc/C/rpc',
      [
        'eth_sign',
        'eth_signTypedData_v4',
        'eth_sendTransaction',
        'eth_accounts',
        'personal_unlockAccount',
        'admin_addPeer',
        'miner_start',
        'debug_setHead',
        'debug_writeMemProfile',
        'shh_post',
        'performance_startCPUProfiler',
        'snowman_issueBlock',
        'debug_traceTransaction',
        'eth_sendTransactionSync',
      ],
    ],
    [
      '/ext/info and every other path',
      ['admin.lockProfile', 'admin.dbGet', 'keystore.exportUser', 'ipcs.publishBlockchain', 'auth.newToken', 'dev.addValidator'],
    ],
  ])('%s: refuses the calls that use node-held keys or act on the node', (_path, methods) => {
    for (const method of methods) expect([method, avalanche.verdict(method)]).toEqual([method, 'refused']);
  });

  it.each([
    ['/ext/bc/P', ['platform.getHeight', 'platform.getBalance', 'platform.getCurrentValidators', 'platform.getStake', 'platform.issueTx', 'platform.getTx']],
    ['/ext/bc/X', ['avm.getTx', 'avm.getAllBalances', 'avm.issueTx', 'avm.getUTXOs']],
    ['/ext/bc/C/avax', ['avax.getUTXOs', 'avax.issueTx', 'avax.getAtomicTxStatus']],
    ['/ext/bc/C/rpc', ['eth_blockNumber', 'eth_call', 'eth_sendRawTransaction', 'eth_getBalance', 'eth_baseFee', 'txpool_status', 'net_version']],
    ['/ext/info, /ext/health, /ext/index', ['info.getNodeID', 'info.isBootstrapped', 'info.peers', 'health.health', 'index.getLastAccepted']],
  ])('%s: lets the standard calls through', (_path, methods) => {
    for (const method of methods) expect([method, avalanche.verdict(method)]).toEqual([method, 'allowed']);
  });

  it('gives the C-Chain the Ethereum rules: every method they allow is allowed, every one they refuse refused', () => {
    const rules = JSON.parse(readFileSync(path.join(DEFAULT_FILTER_DIR, 'ethereum.json'), 'utf8')) as Record<'allowed' | 'refused', { methods: string[] }[]>;
    const allowed = rules.allowed.flatMap((group) => group.methods);
    const refused = rules.refused.flatMap((group) => group.methods).map((entry) => (entry.endsWith('*') ? `${entry.slice(0, -1)}anything` : entry));
    expect(allowed.length).toBeGreaterThan(20);
    expect(refused.length).toBeGreaterThan(10);
    for (const method of allowed) expect([method, avalanche.verdict(method)]).toEqual([method, 'allowed']);
    for (const method of refused) expect([method, avalanche.verdict(method)]).toEqual([method, 'refused']);
  });

  it('refuses as unknown what no list names, on any path', () => {
    for (const method of ['platform.getNewThing', 'avm.frobnicate', 'info.', 'eth_newMethod', 'foo'])
      expect([method, avalanche.verdict(method)]).toEqual([method, 'unknown']);
  });

  it('refuses names avalanchego upper-cases into a refused method (ı to I, ſ to S)', () => {
    for (const method of ['avm.ſend', 'avm.ſendMultiple', 'platform.ımportKey', 'avax.ımportKey', 'PLATFORM.EXPORTKEY'])
      expect([method, avalanche.verdict(method)]).toEqual([method, 'refused']);
  });

  it('answers a refused call in JSON-RPC 2.0 form, and a body that is not JSON too', () => {
    const refused = checkRequest('{"jsonrpc":"2.0","id":3,"method":"platform.exportKey","params":{"address":"P-fuji1x"}}', avalanche, 100);
    expect(refused).toEqual({
      outcome: 'refused',
      status: 200,
      answer: {
        jsonrpc: '2.0',
        id: 3,
        error: {
          code: -32601,
          message: 'method "platform.exportKey" is not allowed on this hosted node',
          data: {
            refusedBy: 'platform',
            method: 'platform.exportKey',
            message: 'the method "platform.exportKey" does not exist/is not available on this hosted node',
          },
        },
      },
      refusedCount: 1,
      unknown: [],
      // Counted in usage under its name as the lists write it.
      refusedMethods: ['platform.exportkey'],
    });
    expect(checkRequest('{"method":', avalanche, 100)).toMatchObject({ status: 400, answer: { jsonrpc: '2.0', id: null, error: { code: -32700 } } });
  });

  it('forwards the allowed calls of a C-Chain batch and answers the refused one in place', () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'eth_sendTransaction', params: [{}] },
      { jsonrpc: '2.0', id: 3, method: 'eth_chainId', params: [] },
    ];
    const checked = checkRequest(JSON.stringify(batch), avalanche, 100);
    if (checked.outcome !== 'forward' || !checked.batch) throw new Error(`expected a forwarded batch, got ${JSON.stringify(checked)}`);
    expect(JSON.parse(checked.body)).toEqual([batch[0], batch[2]]);
    expect(checked.refusedCount).toBe(1);
    const merged = mergeBatchAnswers(checked.answers, checked.forwarded, [
      { jsonrpc: '2.0', id: 1, result: '0x10' },
      { jsonrpc: '2.0', id: 3, result: '0xa869' },
    ]);
    expect(merged).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x10' },
      {
        jsonrpc: '2.0',
        id: 2,
        error: {
          code: -32601,
          message: 'method "eth_sendTransaction" is not allowed on this hosted node',
          data: {
            refusedBy: 'platform',
            method: 'eth_sendTransaction',
            message: 'the method "eth_sendTransaction" does not exist/is not available on this hosted node',
          },
        },
      },
      { jsonrpc: '2.0', id: 3, result: '0xa869' },
    ]);
  });
});
