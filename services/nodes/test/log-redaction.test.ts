import { redactLine, redactLines } from '../src/domain/log-redaction';

// Lines as the software printed them (anvil 1.7.1, Litecoin Core 0.21.2.1, the dev chain), and
// what a reader of the node's log gets instead.
const REDACTED: [source: string, printed: string, served: string][] = [
  ['anvil, "Private Keys"', '(0) 0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', '(0) [redacted: private key]'],
  ['anvil, "Private Keys"', '(9) 0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6', '(9) [redacted: private key]'],
  ['anvil, "Wallet"', 'Mnemonic:          test test test test test test test test test test test junk', 'Mnemonic:          [redacted: mnemonic]'],
  ['anvil', 'Listening on 127.0.0.1:45407', 'Listening on [redacted: internal address]'],
  ['litecoind', '2026-11-25T09:22:30Z Command-line arg: rpcport="45991"', '2026-11-25T09:22:30Z Command-line arg: rpcport="[redacted: port]"'],
  [
    'litecoind -debug=http',
    '2026-11-25T09:22:30Z Binding RPC on address 127.0.0.1 port 45991',
    '2026-11-25T09:22:30Z Binding RPC on address 127.0.0.1 port [redacted: port]',
  ],
  [
    'litecoind',
    '2026-11-25T09:22:31Z ThreadRPCServer incorrect password attempt from 127.0.0.1:51234',
    '2026-11-25T09:22:31Z ThreadRPCServer incorrect password attempt from [redacted: internal address]',
  ],
  [
    'dev chain',
    '2026-11-25T09:24:40Z Binding RPC on address 127.0.0.1 port 36247 (REST enabled)',
    '2026-11-25T09:24:40Z Binding RPC on address 127.0.0.1 port [redacted: port] (REST enabled)',
  ],
  [
    'avalanche dev chain',
    '2026-11-25T09:24:40Z HTTP API server listening on address 127.0.0.1 port 40124',
    '2026-11-25T09:24:40Z HTTP API server listening on address 127.0.0.1 port [redacted: port]',
  ],
  [
    'avalanchego-style JSON',
    'INFO server/server.go:123 HTTP API server listening {"host": "127.0.0.1", "port": 9650}',
    'INFO server/server.go:123 HTTP API server listening {"host": "127.0.0.1", "port": [redacted: port]}',
  ],
  ['a daemon that does not mask', 'Command-line arg: rpcpassword="hunter2"', 'Command-line arg: rpcpassword="[redacted: password]"'],
  ['a daemon that does not mask', 'rpcauth=cloud-proxy:2f1c$9a8b7c', 'rpcauth=[redacted: password]'],
  ['an RPC cookie', 'cookie is __cookie__:4f1c0a9e8d7b6c5a4f1c0a9e8d7b6c5a', 'cookie is __cookie__:[redacted: cookie]'],
  ['an HTTP header', 'request headers: authorization: Basic Y2xvdWQtcHJveHk6c2VjcmV0', 'request headers: authorization: Basic [redacted: credentials]'],
  ['any software', 'private key: 0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d', 'private key: [redacted: private key]'],
  ['a URL of the node', 'upstream http://localhost:8545/ext/bc/C/rpc failed', 'upstream http://[redacted: internal address]/ext/bc/C/rpc failed'],
  ['IPv6 loopback', 'Binding RPC on [::1]:18443', 'Binding RPC on [redacted: internal address]'],
];

// What a user needs from the log, and must keep: hashes have the shape of keys but other names.
const KEPT: [source: string, line: string][] = [
  ['anvil, "Available Accounts"', '(0) 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 (10000.000000000000000000 ETH)'],
  ['anvil', '    Block Hash: 0x459b19cfeef1f3da66662c0a76d152eb824feb87fde94b66844b6732259bcd6a'],
  ['anvil', '    Block Number: 1'],
  ['anvil', '    Transaction: 0x13e3337ad78e93f9283c1c0c430df16f16891701dda14a4a41790e3d1e886fd6'],
  ['anvil, "Wallet"', "Derivation path:   m/44'/60'/0'/0/"],
  ['anvil', 'Private Keys'],
  ['litecoind, masked by itself', '2026-11-25T09:22:30Z Command-line arg: rpcauth=****'],
  ['litecoind', '2026-11-25T09:22:30Z Command-line arg: rpcallowip="127.0.0.1"'],
  ['litecoind', '2026-11-25T09:22:30Z Generated RPC authentication cookie /tmp/node-1/data/regtest/.cookie'],
  ['litecoind', '2026-11-25T09:22:30Z Using obfuscation key for /tmp/node-1/data/regtest/chainstate: c1e90cc584917970'],
  [
    'litecoind',
    "2026-11-25T09:22:30Z UpdateTip: new best=530827f38f93b43ed12af0b3ad25a288dc02ed74d6d7857862df51fc56c416f9 height=0 version=0x00000001 log2_work=1.000000 tx=1 date='2011-02-02T23:16:42Z' progress=1.000000 cache=0.0MiB(0txo)",
  ],
  ['litecoind', '2026-11-25T09:22:30Z Using at most 125 automatic connections (20000 file descriptors available)'],
  ['litecoind', '2026-11-25T09:22:30Z Incorrect rpcuser or rpcpassword'],
  [
    'avalanche dev chain',
    '2026-11-25T09:24:40Z Registered validator NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg txID=2Y7K start=1795598530 end=1795602130 weight=2000000000000 (P-chain height 3)',
  ],
  ['this service', '[cloud-nodes 2026-11-25T09:24:40.000Z] started anvil-1.7.1 as pid 4242'],
  ['this service', '[cloud-nodes 2026-11-25T09:24:41.000Z] anvil-1.7.1 exited with code 1'],
  ['words like port', 'Supporting 12 imports of 3 transports'],
];

test.each(REDACTED)('%s: a secret in %j is redacted', (_source, printed, served) => {
  expect(redactLine(printed)).toBe(served);
});

test.each(KEPT)('%s: %j is kept as printed', (_source, line) => {
  expect(redactLine(line)).toBe(line);
});

test('redactLines redacts each line of a tail, wherever it starts', () => {
  const tail = ['(3) 0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6', '', 'Listening on 127.0.0.1:8545'];
  expect(redactLines(tail)).toEqual(['(3) [redacted: private key]', '', 'Listening on [redacted: internal address]']);
});

test('a line crafted to make the patterns backtrack (a contract can make anvil print one) is redacted in linear time', () => {
  const padding = ' '.repeat(200_000);
  const crafted = ['port', 'rpcport"', 'password', 'private key', 'mnemonic', 'authorization: basic', '127.0.0.1', '(1)'].map((word) => `${word}${padding}x`);
  const started = performance.now();
  expect(redactLines(crafted)).toEqual(crafted);
  expect(performance.now() - started).toBeLessThan(500);
});
