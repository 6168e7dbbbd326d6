import { DEFAULT_FILTER_DIR } from '../src/config';
import { loadMethodPolicies } from '../src/json-rpc/method-policy';
import { bitcoinCandidates, goCandidates, namespacedCandidates, namespacesIn, scriptCandidates } from './drift/candidates';
import { unlisted } from './drift/node-methods';

const policies = loadMethodPolicies(DEFAULT_FILTER_DIR);

describe('the drift check itself', () => {
  it('fails on a served method in neither list, naming it, and passes listed ones whichever list has them', () => {
    expect(unlisted(['getblockcount', 'stop', 'submitblock', 'frobnicatechain', 'getnewfancything'], policies.bitcoin)).toEqual([
      'frobnicatechain',
      'getnewfancything',
    ]);
    expect(unlisted(['eth_blockNumber', 'anvil_setBalance', 'tenderly_setBalance', 'eth_sendTransactionSync', 'newspace_doThing'], policies.ethereum)).toEqual([
      'newspace_doThing',
    ]);
    expect(unlisted(['info.getNodeID', 'platform.exportKey', 'platform.getFancyThing', 'eth_chainId'], policies.avalanche)).toEqual(['platform.getFancyThing']);
    expect(unlisted([], policies.bitcoin)).toEqual([]);
  });

  it('finds bitcoin-family names among a binary’s strings, also as the tail of a longer one', () => {
    const names = bitcoinCandidates('\0\x7fELF\0getblockcount\0%s: prestop\0invalidateblock\x01\x02submitheader\0');
    for (const name of ['getblockcount', 'stop', 'invalidateblock', 'submitheader']) expect([name, names.has(name)]).toEqual([name, true]);
  });

  it('finds ethereum names laid end to end in a compiled binary, even before unrelated text', () => {
    const text = '\0\0anvil_resethardhat_setBalancetenderly_setBalanceeth_blockNumberfailed to fetch block\0tenderly_x\0eth_x\0hardhat_x\0';
    const namespaces = namespacesIn(text);
    expect([...namespaces].sort()).toEqual(['anvil', 'eth', 'hardhat', 'tenderly']);
    const cheap = namespacedCandidates(text, namespaces, false);
    expect(['anvil_reset', 'hardhat_setBalance', 'tenderly_setBalance'].every((name) => cheap.has(name))).toBe(true);
    expect(cheap.has('eth_blockNumber')).toBe(false);
    expect(namespacedCandidates(text, namespaces, true).has('eth_blockNumber')).toBe(true);
  });

  it('finds Go API methods under each namespace, first letter lower-cased', () => {
    const names = goCandidates(
      'github.com/ethereum/go-ethereum/internal/ethapi.(*BlockChainAPI).GetBalance\0avalanchego/vms/platformvm.(*Service).GetHeight\0',
      ['eth', 'debug'],
      '_',
    );
    expect([...names].sort()).toEqual(['debug_getBalance', 'debug_getHeight', 'eth_getBalance', 'eth_getHeight']);
  });

  it('finds the names a script writes as string literals', () => {
    const names = scriptCandidates("methods: { 'info.getNodeID': () => 1, eth_chainId: () => 2, getblockcount: { run } }");
    for (const name of ['info.getNodeID', 'eth_chainId', 'getblockcount']) expect([name, names.has(name)]).toEqual([name, true]);
  });
});
