import { JsonRpcProvider } from 'ethers';
import { checkRequest, mergeBatchAnswers, parseNodeBatchAnswer } from '../src/json-rpc/json-rpc';
import { DEFAULT_FILTER_DIR } from '../src/config';
import { loadMethodPolicies } from '../src/json-rpc/method-policy';

const { bitcoin, ethereum } = loadMethodPolicies(DEFAULT_FILTER_DIR);

/** A refusal's `data`: who refused it, and go-ethereum's words that ethers v6 classifies. */
const refusedBy = (by: 'platform' | 'accessRule', method: string) => ({
  refusedBy: by,
  method,
  message: `the method "${method}" does not exist/is not available on this hosted node`,
});

describe('checking a JSON-RPC request', () => {
  it('forwards an allowed call re-serialised from what was parsed', () => {
    const checked = checkRequest('  {"jsonrpc":"1.0", "id":"x",\n "method":"getblockcount","params":[]}  ', bitcoin, 100);
    expect(checked).toEqual({
      outcome: 'forward',
      body: '{"jsonrpc":"1.0","id":"x","method":"getblockcount","params":[]}',
      batch: false,
      refusedCount: 0,
      call: { jsonrpc: '1.0', id: 'x', method: 'getblockcount', params: [] },
      method: 'getblockcount',
      unknown: [],
      refusedMethods: [],
    });
  });

  it('refuses a blocked method in any case, in the node’s dialect', () => {
    for (const method of ['stop', 'STOP', 'Stop', 'dumpPrivKey', 'listwallettransactions']) {
      const checked = checkRequest(JSON.stringify({ jsonrpc: '1.0', id: 7, method, params: [] }), bitcoin, 100);
      expect(checked).toEqual({
        outcome: 'refused',
        status: 200,
        answer: {
          result: null,
          error: { code: -32601, message: `method "${method}" is not allowed on this hosted node`, data: refusedBy('platform', method) },
          id: 7,
        },
        refusedCount: 1,
        unknown: [],
        // Counted in usage under the name the lists write.
        refusedMethods: [method.toLowerCase()],
      });
    }
    const eth = checkRequest('{"jsonrpc":"2.0","id":1,"method":"personal_unlockAccount","params":[]}', ethereum, 100);
    expect(eth).toMatchObject({ outcome: 'refused', answer: { jsonrpc: '2.0', id: 1, error: { code: -32601 } } });
  });

  it('answers in the family’s dialect whatever the call says, as its nodes do: Litecoin Core 0.21 answers 1.0 to a 2.0 call, anvil 2.0 to a call without jsonrpc', () => {
    const batch = checkRequest(
      '[{"jsonrpc":"2.0","id":1,"method":"getblockcount"},{"jsonrpc":"2.0","id":2,"method":"stop"},{"jsonrpc":"2.0","id":3,"method":5}]',
      bitcoin,
      100,
    );
    if (batch.outcome !== 'forward' || !batch.batch) throw new Error(`expected a forwarded batch, got ${JSON.stringify(batch)}`);
    expect(batch.answers).toEqual([
      undefined,
      { result: null, error: { code: -32601, message: 'method "stop" is not allowed on this hosted node', data: refusedBy('platform', 'stop') }, id: 2 },
      { result: null, error: { code: -32600, message: 'invalid request: a call is an object with a string "method"' }, id: 3 },
    ]);
    expect(checkRequest('{"id":"a","method":"eth_accounts"}', ethereum, 100)).toMatchObject({ answer: { jsonrpc: '2.0', id: 'a', error: { code: -32601 } } });
    expect((checkRequest('{"id":"a","method":"eth_accounts"}', ethereum, 100) as { answer: object }).answer).not.toHaveProperty('result');
  });

  it('refuses in a shape ethers v6 classifies as UNSUPPORTED_OPERATION (it made the proxy’s own words UNKNOWN_ERROR)', () => {
    const provider = new JsonRpcProvider('http://127.0.0.1:9/', 1, { staticNetwork: true });
    try {
      for (const method of ['eth_accounts', 'foo_bar']) {
        const payload = { jsonrpc: '2.0', id: 1, method, params: [] } as const;
        const checked = checkRequest(JSON.stringify(payload), ethereum, 100);
        const answer = (checked as { answer: { id: number; jsonrpc: '2.0'; error: { code: number; message: string } } }).answer;
        expect(provider.getRpcError(payload, answer)).toMatchObject({ code: 'UNSUPPORTED_OPERATION', operation: method });
        // Without `data`, the contract's message alone:
        expect(provider.getRpcError(payload, { ...answer, error: { code: -32601, message: answer.error.message } })).toMatchObject({ code: 'UNKNOWN_ERROR' });
      }
    } finally {
      provider.destroy();
    }
  });

  it('checks the method the node will see when keys are duplicated: the last one, which is what is forwarded', () => {
    const checked = checkRequest('{"id":1,"method":"getblockcount","method":"stop","params":[]}', bitcoin, 100);
    expect(checked).toMatchObject({ outcome: 'refused', answer: { error: { code: -32601, message: 'method "stop" is not allowed on this hosted node' } } });
    const allowed = checkRequest('{"id":1,"method":"stop","method":"getblockcount"}', bitcoin, 100);
    expect(allowed).toEqual({
      outcome: 'forward',
      body: '{"id":1,"method":"getblockcount"}',
      batch: false,
      refusedCount: 0,
      call: { id: 1, method: 'getblockcount' },
      method: 'getblockcount',
      unknown: [],
      refusedMethods: [],
    });
  });

  it('refuses a call naming its method again in another case, which Go nodes (geth, avalanchego) would read last', () => {
    const checked = checkRequest('{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","METHOD":"eth_sendTransaction"}', ethereum, 100);
    expect(checked).toMatchObject({ outcome: 'refused', status: 400, answer: { jsonrpc: '2.0', id: 1, error: { code: -32600 } } });
  });

  it('refuses a body that is not JSON (-32700) and a call without a string method (-32600) with 400', () => {
    expect(checkRequest('{"method":"stop"', bitcoin, 100)).toEqual({
      outcome: 'refused',
      status: 400,
      answer: { result: null, id: null, error: { code: -32700, message: 'parse error: the body is not JSON' } },
      refusedCount: 1,
      unknown: [],
      refusedMethods: [],
    });
    expect(checkRequest('{"method":"stop"', ethereum, 100)).toMatchObject({ answer: { jsonrpc: '2.0', id: null, error: { code: -32700 } } });
    expect(checkRequest('/* hi */ {"method":"getblockcount"}', bitcoin, 100)).toMatchObject({ status: 400, answer: { error: { code: -32700 } } });
    expect(checkRequest('{"id":3,"method":5}', bitcoin, 100)).toMatchObject({ status: 400, answer: { id: 3, error: { code: -32600 } } });
    expect(checkRequest('"stop"', bitcoin, 100)).toMatchObject({ status: 400, answer: { id: null, error: { code: -32600 } } });
  });

  it('answers an empty batch with -32600 and a batch over the limit with 413', () => {
    expect(checkRequest('[]', ethereum, 100)).toMatchObject({
      outcome: 'refused',
      status: 400,
      answer: { error: { code: -32600, message: 'invalid request: empty batch' } },
    });
    const long = JSON.stringify(Array.from({ length: 4 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_blockNumber' })));
    expect(checkRequest(long, ethereum, 3)).toMatchObject({
      outcome: 'refused',
      status: 413,
      answer: { error: { code: -32600, message: 'batch of 4 calls is over the limit of 3' } },
    });
  });

  it('forwards only the allowed calls of a batch and keeps a refusal at each refused position', () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'EVM_MINE', params: [] },
      { jsonrpc: '2.0', id: 3, method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 4 },
    ];
    const checked = checkRequest(JSON.stringify(batch), ethereum, 100);
    if (checked.outcome !== 'forward' || !checked.batch) throw new Error(`expected a forwarded batch, got ${JSON.stringify(checked)}`);
    expect(JSON.parse(checked.body)).toEqual([batch[0], batch[2]]);
    expect(checked.refusedCount).toBe(2);
    // The node answers out of order; the merge puts every answer back in the request's place.
    const merged = mergeBatchAnswers(checked.answers, checked.forwarded, [
      { jsonrpc: '2.0', id: 3, result: '0x7a69' },
      { jsonrpc: '2.0', id: 1, result: '0x10' },
    ]);
    expect(merged).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x10' },
      {
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32601, message: 'method "EVM_MINE" is not allowed on this hosted node', data: refusedBy('platform', 'EVM_MINE') },
      },
      { jsonrpc: '2.0', id: 3, result: '0x7a69' },
      { jsonrpc: '2.0', id: 4, error: { code: -32600, message: 'invalid request: a call is an object with a string "method"' } },
    ]);
  });

  it('judges each call of a batch repeating a method, whatever came before it: in another case, with a look-alike key, refused by the owner', () => {
    const call = (id: number, method: string, extra: object = {}) => ({ jsonrpc: '2.0', id, method, params: [], ...extra });
    const batch = [
      call(1, 'eth_blockNumber'),
      call(2, 'eth_blockNumber'),
      call(3, 'ETH_BLOCKNUMBER'),
      call(4, 'eth_blockNumber', { METHOD: 'evm_mine' }),
      call(5, 'evm_mine'),
      call(6, 'eth_blockNumber'),
    ];
    const checked = checkRequest(JSON.stringify(batch), ethereum, 100);
    if (checked.outcome !== 'forward' || !checked.batch) throw new Error(`expected a forwarded batch, got ${JSON.stringify(checked)}`);
    expect(checked.methods).toEqual(['eth_blocknumber', 'eth_blocknumber', 'eth_blocknumber', 'eth_blocknumber']);
    expect(checked.forwarded.map((each) => each.id)).toEqual([1, 2, 3, 6]);
    expect(checked.answers.map((answer) => answer?.error.code)).toEqual([undefined, undefined, undefined, -32600, -32601, undefined]);
  });

  it('merges no answer at all from the node when every forwarded call was a notification', () => {
    const checked = checkRequest('[{"jsonrpc":"2.0","method":"eth_chainId"},{"jsonrpc":"2.0","id":7,"method":"eth_accounts"}]', ethereum, 100);
    if (checked.outcome !== 'forward' || !checked.batch) throw new Error(`expected a forwarded batch, got ${JSON.stringify(checked)}`);
    expect(mergeBatchAnswers(checked.answers, checked.forwarded, parseNodeBatchAnswer('').value)).toEqual([
      {
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32601, message: 'method "eth_accounts" is not allowed on this hosted node', data: refusedBy('platform', 'eth_accounts') },
      },
    ]);
    expect(parseNodeBatchAnswer('<html>').value).toEqual({
      result: null,
      error: { code: -32603, message: 'the node answered with something other than JSON' },
      id: null,
    });
  });

  it('answers a batch of refused calls without the node', () => {
    const checked = checkRequest('[{"id":1,"method":"stop"},{"id":2,"method":"GenerateToAddress"}]', bitcoin, 100);
    expect(checked).toMatchObject({ outcome: 'refused', status: 200, refusedCount: 2 });
    expect((checked as { answer: { id: number }[] }).answer.map((answer) => answer.id)).toEqual([1, 2]);
  });
});

describe('the shipped method rules', () => {
  it.each([
    [
      'bitcoin',
      bitcoin,
      [
        'stop',
        'generate',
        'generatetoaddress',
        'getbalance',
        'sendtoaddress',
        'dumpwallet',
        'importprivkey',
        'fundrawtransaction',
        'getaccount',
        'setban',
        'invalidateblock',
        'setmocktime',
        'logging',
        'dumptxoutset',
        'submitblock',
        'submitheader',
        'getpeerinfo',
        'gettxoutsetinfo',
      ],
    ],
    [
      'ethereum',
      ethereum,
      [
        'eth_accounts',
        'shh_newIdentity',
        'eth_sign',
        'eth_signTypedData_v4',
        'eth_sendTransaction',
        'eth_sendTransactionSync',
        'personal_sign',
        'admin_addPeer',
        'miner_start',
        'debug_setHead',
        'debug_traceTransaction',
        'trace_block',
        'anvil_setBalance',
        'tenderly_setBalance',
        'tenderly_addBalance',
        'evm_revert',
        'hardhat_mine',
        'shh_post',
      ],
    ],
  ] as const)('%s refuses the issue’s methods on purpose', (_family, policy, methods) => {
    for (const method of methods) expect([method, policy.verdict(method)]).toEqual([method, 'refused']);
  });

  it.each([
    [
      'bitcoin',
      bitcoin,
      [
        'getblock',
        'getblockcount',
        'getdifficulty',
        'getblockchaininfo',
        'sendrawtransaction',
        'signrawtransactionwithkey',
        'estimatesmartfee',
        'getrawtransaction',
        'GetBlockCount',
      ],
    ],
    [
      'ethereum',
      ethereum,
      [
        'eth_blockNumber',
        'eth_call',
        'eth_getBalance',
        'eth_sendRawTransaction',
        'eth_subscribe',
        'eth_estimateGas',
        'eth_getLogs',
        'net_version',
        'ETH_CHAINID',
      ],
    ],
  ] as const)('%s lets standard calls through', (_family, policy, methods) => {
    for (const method of methods) expect([method, policy.verdict(method)]).toEqual([method, 'allowed']);
  });

  it.each([
    ['bitcoin', bitcoin, ['foo', 'getblockcountx', 'getblockcoun', 'getnewblockthing', '']],
    ['ethereum', ethereum, ['foo_bar', 'eth_getBalancex', 'eth_newMethod', 'eth_', 'net_']],
  ] as const)('%s refuses a method in neither list as unknown', (_family, policy, methods) => {
    for (const method of methods) expect([method, policy.verdict(method)]).toEqual([method, 'unknown']);
  });

  it('answers an unknown method -32601 as not offered, names it for the metrics, and forwards the allowed calls beside it', () => {
    expect(checkRequest('{"jsonrpc":"2.0","id":4,"method":"foo_bar","params":[]}', ethereum, 100)).toEqual({
      outcome: 'refused',
      status: 200,
      answer: {
        jsonrpc: '2.0',
        id: 4,
        error: { code: -32601, message: 'method "foo_bar" is not allowed on this hosted node (not offered)', data: refusedBy('platform', 'foo_bar') },
      },
      refusedCount: 1,
      unknown: ['foo_bar'],
      refusedMethods: ['other'],
    });
    const batch = checkRequest('[{"id":1,"method":"getblockcount"},{"id":2,"method":"stop"},{"id":3,"method":"futurecall"}]', bitcoin, 100);
    expect(batch).toMatchObject({
      outcome: 'forward',
      batch: true,
      refusedCount: 2,
      unknown: ['futurecall'],
      refusedMethods: ['stop', 'other'],
      body: '[{"id":1,"method":"getblockcount"}]',
    });
  });

  it('names each refused call for usage as the lists know it, bounded: an exact name, the refused prefix that covers it, else other', () => {
    const batch = JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' },
      { jsonrpc: '2.0', id: 2, method: 'EVM_MINE' },
      { jsonrpc: '2.0', id: 3, method: 'personal_unlockAccount' },
      { jsonrpc: '2.0', id: 4, method: 'personal_madeUpName123' },
      { jsonrpc: '2.0', id: 5, method: 'made_up_by_the_caller' },
      { jsonrpc: '2.0', id: 6 },
    ]);
    expect(checkRequest(batch, ethereum, 100)).toMatchObject({ refusedCount: 5, refusedMethods: ['evm_mine', 'personal_*', 'personal_*', 'other', 'other'] });
    // The dev layer's names are known names too: refused by name on a real network.
    expect(checkRequest('{"id":1,"method":"generatetoaddress"}', bitcoin, 100)).toMatchObject({ outcome: 'refused', refusedMethods: ['generatetoaddress'] });
    // A request refused whole is no call of a known name: its calls count under other.
    expect(checkRequest(JSON.stringify(Array.from({ length: 4 }, (_, id) => ({ id, method: 'stop' }))), bitcoin, 3)).toMatchObject({
      refusedCount: 4,
      refusedMethods: [],
    });
  });
});
