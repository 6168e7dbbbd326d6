import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { nodeRpcAuthorization, nodeRpcPassword } from '@cloud/node-rpc-auth';
import { rpcAuth } from '../src/drivers/local/credentials';
import { launchPlan, type NodeLaunch } from '../src/drivers/local/launch-plans';
import { nodePaths, readNodeRecord, writeNodeRecord } from '../src/drivers/local/node-files';
import { NodeLog, tailLog } from '../src/drivers/local/node-log';
import type { Software } from '../src/drivers/local/software';
import { softwareLabel } from '../src/drivers/local/software-label';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'local-driver-parts-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

test.each([
  ['Litecoin Core version v0.21.2.1-gfce5d459f0a83f56a83059c5c69295d7745b51d2\nCopyright (C) 2011-2022', 'litecoin-core-0.21.2.1'],
  ['Bitcoin Core version v27.0.0\n', 'bitcoin-core-27.0.0'],
  ['Bitcoin Core daemon version v28.1.0', 'bitcoin-core-28.1.0'],
  ['Bitcoin Cash Node Daemon version v28.0.1-3b6c2a3\n', 'bitcoin-cash-node-28.0.1'],
  ['Cloud Dev Chain version v0.1.0\n', 'cloud-dev-chain-0.1.0'],
  ['anvil Version: 1.7.1\nCommit SHA: 4072e487', 'anvil-1.7.1'],
  ['avalanchego/1.11.13 [database=v1.4.5, rpcchainvm=38, commit=1ae23ef, go=1.22.8]\n', 'avalanchego-1.11.13'],
])('the software label of %j is %s', (output, label) => {
  expect(softwareLabel(output)).toBe(label);
});

test('output without a version gives no label', () => {
  expect(softwareLabel('')).toBeUndefined();
  expect(softwareLabel('Usage: foo [options]')).toBeUndefined();
  expect(softwareLabel('version 1.2.3')).toBeUndefined();
});

test("rpcauth: the proxy's user and only a salted hash of the password", () => {
  const password = 'p'.repeat(64);
  const line = rpcAuth(password);
  const match = /^cloud-proxy:([0-9a-f]{32})\$([0-9a-f]{64})$/.exec(line);
  expect(match).not.toBeNull();
  expect(match?.[2]).toBe(
    createHmac('sha256', match?.[1] ?? '')
      .update(password)
      .digest('hex'),
  );
  expect(rpcAuth(password)).not.toBe(line); // a new salt each time
});

test('node paths stay inside the root', () => {
  expect(nodePaths('/srv/nodes', 'node-1')).toEqual({
    dir: '/srv/nodes/node-1',
    dataDir: '/srv/nodes/node-1/data',
    record: '/srv/nodes/node-1/node.json',
    log: '/srv/nodes/node-1/node.log',
    output: '/srv/nodes/node-1/node.out',
    stakingCertificate: '/srv/nodes/node-1/staking/staker.crt',
    stakingKey: '/srv/nodes/node-1/staking/staker.key',
  });
  for (const id of ['', '.', '..', '../x', 'a/b', '-rf']) expect(() => nodePaths('/srv/nodes', id)).toThrow('not a node id');
});

test('the node record is written whole and read back; a broken one reads as none', async () => {
  const file = path.join(dir, 'node.json');
  await writeNodeRecord(file, { image: 'ltc', rpcPort: 40123, pid: 77 });
  expect(await readNodeRecord(file)).toEqual({ image: 'ltc', rpcPort: 40123, pid: 77 });
  await writeFile(file, '{"image":"ltc"');
  expect(await readNodeRecord(file)).toBeUndefined();
  expect(await readNodeRecord(path.join(dir, 'missing.json'))).toBeUndefined();
});

test('the node log rotates beyond its size, and its tail spans both files, oldest first', async () => {
  const file = path.join(dir, 'node.log');
  const log = new NodeLog(file, 100);
  for (let line = 1; line <= 12; line += 1) log.write(`line ${String(line).padStart(2, '0')} ${'x'.repeat(12)}\n`);
  log.close();
  expect((await stat(file)).size).toBeLessThanOrEqual(100);
  expect((await readFile(`${file}.1`, 'utf8')).split('\n')[0]).toMatch(/^line \d\d/);
  const tail = await tailLog(file, 6);
  expect(tail.map((line) => line.slice(0, 7))).toEqual(['line 07', 'line 08', 'line 09', 'line 10', 'line 11', 'line 12']);
  expect(await tailLog(file, 0)).toEqual([]);
  expect(await tailLog(path.join(dir, 'none.log'), 5)).toEqual([]);
  expect([(await stat(file)).mode & 0o777, (await stat(`${file}.1`)).mode & 0o777]).toEqual([0o600, 0o600]);
});

test('a node log an earlier version left readable by others is closed at its next write', async () => {
  const file = path.join(dir, 'old.log');
  await writeFile(file, 'written by an earlier version\n', { mode: 0o644 });
  const log = new NodeLog(file, 1000);
  log.write('a new line\n');
  log.close();
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  expect(await tailLog(file, 5)).toEqual(['written by an earlier version', 'a new line']);
});

test('the tail of a large log is read from its end, whole lines only', async () => {
  const file = path.join(dir, 'large.log');
  const lines = Array.from({ length: 20_000 }, (_, index) => `entry ${index} ${'é'.repeat(index % 7)}`);
  await writeFile(file, `${lines.join('\n')}\nlast line without newline`);
  expect(await tailLog(file, 3)).toEqual([lines[19_998], lines[19_999], 'last line without newline']);
});

describe('launch plans', () => {
  const rpcKey = Buffer.from('k'.repeat(32));
  const node: NodeLaunch = {
    id: 'node-a',
    image: 'ltc',
    large: false,
    dev: true,
    txindex: false,
    peers: undefined,
    pruneMb: 0,
    dataDir: '/n/data',
    port: 40001,
    rpcKey,
    ethChainId: 31337,
    blockIntervalSeconds: 2,
    stakingCertificate: '/n/staking/staker.crt',
    stakingKey: '/n/staking/staker.key',
  };
  const software = (kind: Software['kind'], baseArgs: string[] = []): Software => ({ kind, command: '/bin/x', baseArgs, label: undefined });

  test('litecoind: regtest on loopback with rpcauth, no listening, MWEB kept dormant, flushed to disk as it mines', () => {
    const plan = launchPlan(software('litecoin-core'), node);
    expect(plan.args).toEqual(
      expect.arrayContaining(['-regtest', '-datadir=/n/data', '-rpcbind=127.0.0.1', '-rpcallowip=127.0.0.1', '-rpcport=40001', '-listen=0']),
    );
    expect(plan.args).toEqual(expect.arrayContaining(['-server', '-rest', '-disablewallet', '-printtoconsole', '-vbparams=mweb:0:0:2147483647:2147483647']));
    // The password the proxy derives for this node, as only a salted hash.
    const [salt, hash] =
      /^-rpcauth=cloud-proxy:([0-9a-f]{32})\$([0-9a-f]{64})$/.exec(plan.args.find((arg) => arg.startsWith('-rpcauth=')) ?? '')?.slice(1) ?? [];
    expect(hash).toBe(
      createHmac('sha256', salt ?? '')
        .update(nodeRpcPassword(rpcKey, 'node-a'))
        .digest('hex'),
    );
    expect(plan.args.some((arg) => arg.startsWith('-dbcache'))).toBe(false);
    expect(plan.rpc).toEqual({ url: 'http://127.0.0.1:40001', authorization: nodeRpcAuthorization(rpcKey, 'node-a') });
    expect(plan.mine).toEqual({ method: 'generatetodescriptor', params: [1, 'raw(51)'] });
    expect(plan.checkpoint?.method).toBe('gettxoutsetinfo');
  });

  test('on its public network litecoind runs mainnet, pruned, finds its own peers and mines nothing', () => {
    const plan = launchPlan(software('litecoin-core'), { ...node, dev: false, pruneMb: 2000 });
    expect(plan.args).toEqual(expect.arrayContaining(['-prune=2000', '-listen=0', '-datadir=/n/data', '-rpcport=40001']));
    expect(plan.args.filter((arg) => /^-(regtest|testnet|connect|vbparams|txindex)/.test(arg))).toEqual([]);
    expect([plan.mine, plan.checkpoint]).toEqual([undefined, undefined]);
  });

  test('peers: -connect to each (none: -connect=0); a dev chain with peers follows theirs instead of mining', () => {
    const following = launchPlan(software('litecoin-core'), { ...node, peers: ['127.0.0.1:19444', 'seed.example:9333'] });
    expect(following.args).toEqual(expect.arrayContaining(['-regtest', '-connect=127.0.0.1:19444', '-connect=seed.example:9333']));
    expect(following.mine).toBeUndefined();
    // Their chain's rules, not the ones that keep a chain of our own mineable.
    expect(following.args.some((arg) => arg.startsWith('-vbparams'))).toBe(false);
    expect(launchPlan(software('litecoin-core'), { ...node, dev: false, peers: [] }).args).toContain('-connect=0');
  });

  test('testnet4 where the software has it: Bitcoin Core from 28, Bitcoin Cash Node; older Core runs testnet3', () => {
    const core = (label: string) => ({ ...software('bitcoin-core'), label });
    const testnet = { ...node, image: 'btctestnet' as const, dev: false };
    expect(launchPlan(core('bitcoin-core-30.2'), testnet).args).toContain('-testnet4');
    expect(launchPlan(core('bitcoin-core-27.1'), testnet).args).toContain('-testnet');
    expect(launchPlan(software('bitcoin-cash-node'), { ...testnet, image: 'bchtestnet' }).args).toContain('-testnet4');
    expect(launchPlan(core('bitcoin-core-30.2'), { ...node, image: 'btc', dev: false }).args.some((arg) => arg.startsWith('-testnet'))).toBe(false);
  });

  test('a transaction index is -txindex; the dev chain runs no public network', () => {
    expect(launchPlan(software('litecoin-core'), { ...node, txindex: true }).args).toContain('-txindex');
    expect(() => launchPlan(software('dev-chain', ['/dev-chain/main.js']), { ...node, dev: false })).toThrow('the dev chain cannot run ltc nodes on mainnet');
  });

  test('the dev chain gets the same arguments, and its chain', () => {
    const plan = launchPlan(software('dev-chain', ['/dev-chain/main.js']), { ...node, image: 'bchtestnet', large: true });
    expect(plan.args.slice(0, 2)).toEqual(['/dev-chain/main.js', '-regtest']);
    expect(plan.args).toEqual(expect.arrayContaining(['-chain=bch', '-dbcache=1024', '-rpcport=40001']));
    expect(plan.args.some((arg) => arg.startsWith('-vbparams'))).toBe(false);
  });

  test('Bitcoin Cash Node mines to an address, having no generatetodescriptor', () => {
    expect(launchPlan(software('bitcoin-cash-node'), { ...node, image: 'bch' }).mine).toEqual({
      method: 'generatetoaddress',
      params: [1, 'bchreg:prdpw30fk4ym6zl6rftfjuw806arpn26fveknc0qmt'],
    });
  });

  test('anvil: loopback, its chain id and block time, accounts from a random mnemonic, state kept in the data directory', () => {
    const plan = launchPlan(software('anvil'), { ...node, image: 'eth' });
    expect(plan.args.join(' ')).toBe(
      '--host 127.0.0.1 --port 40001 --chain-id 31337 --block-time 2 --mnemonic-random --state /n/data/anvil-state.json --state-interval 5 --cache-path /n/data/cache',
    );
    expect(plan.rpc).toEqual({ url: 'http://127.0.0.1:40001', authorization: nodeRpcAuthorization(rpcKey, 'node-a') });
    expect(plan.probe.method).toBe('eth_blockNumber');
    expect(plan.mine).toBeUndefined();
  });

  test.each([
    ['avalanchego', [], 'fuji'],
    ['dev-chain', ['/dev-chain/main.js', '-chain=avalanche'], 'mainnet'],
  ] as const)('%s runs a validator with its staking TLS pair, its HTTP API on loopback', (kind, leading, network) => {
    const image = network === 'fuji' ? 'avalanchefuji' : 'avalanche';
    const plan = launchPlan(software(kind, kind === 'dev-chain' ? ['/dev-chain/main.js'] : []), { ...node, image });
    expect(plan.args).toEqual([
      ...leading,
      `--network-id=${network}`,
      '--http-host=127.0.0.1',
      '--http-port=40001',
      '--http-allowed-hosts=*',
      '--staking-tls-cert-file=/n/staking/staker.crt',
      '--staking-tls-key-file=/n/staking/staker.key',
      '--data-dir=/n/data',
    ]);
    expect(plan.probe).toEqual({ method: 'info.getNodeID', params: {}, path: '/ext/info' });
    expect(plan.mine).toBeUndefined();
  });
});
