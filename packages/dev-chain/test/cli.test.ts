import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { avalancheNodeIdFromPem } from '@cloud/chains';
import { makeRpcAuth, parseArguments } from '../src';
import * as avalanche from './avalanche-client';
import type { RpcTarget } from './rpc-client';
import { call, post } from './rpc-client';
import type { StakingFiles } from './staking-certificate';
import { makeStakingFiles } from './staking-certificate';

const packageDir = join(__dirname, '..');
const mainJs = join(packageDir, 'dist', 'main.js');
// dist/main.js loads @cloud/chains from its build, so the test builds that package too.
const chainsDir = join(packageDir, '..', 'chains');

describe('parseArguments', () => {
  const run = (argv: string[]) => {
    const command = parseArguments(argv);
    if (command.kind !== 'run') throw new Error(`expected a run command, got ${command.kind}`);
    return command.options;
  };

  it('needs only -datadir and -rpcport, with bitcoind-like defaults', () => {
    expect(run(['-datadir=/tmp/x', '-rpcport=18443'])).toEqual({
      chain: 'btc',
      datadir: '/tmp/x',
      host: '127.0.0.1',
      port: 18443,
      rpcauth: [],
      rest: false,
      blockIntervalSeconds: 0,
    });
  });

  it('takes every option, repeated -rpcauth, and ignores what a driver passes for bitcoind', () => {
    const auth = [makeRpcAuth('a', 'x'), makeRpcAuth('b', 'y')];
    const argv = [
      '-regtest',
      '-chain=ltc',
      '-datadir=/d',
      '-rpcbind=0.0.0.0',
      '-rpcport=1',
      `-rpcauth=${auth[0]}`,
      `-rpcauth=${auth[1]}`,
      '-rest',
      '-blockinterval=2.5',
    ];
    const ignored = [
      '-disablewallet',
      '-listen=0',
      '-server',
      '-printtoconsole',
      '-dbcache=450',
      '-rpcallowip=127.0.0.1',
      '-txindex',
      '-nolisten',
      '-port=18444',
    ];
    expect(run([...argv, ...ignored])).toEqual({ chain: 'ltc', datadir: '/d', host: '0.0.0.0', port: 1, rpcauth: auth, rest: true, blockIntervalSeconds: 2.5 });
    expect(run(['-datadir=/d', '-rpcport=1', '--rest', '-norest']).rest).toBe(false);
    expect(run(['-datadir=/d', '-rpcport=1', '-rest=1']).rest).toBe(true);
  });

  it('answers -version and -help before checking the other options', () => {
    expect(parseArguments(['-version'])).toEqual({ kind: 'version' });
    expect(parseArguments(['-help'])).toEqual({ kind: 'help' });
  });

  it.each([
    [['-datadir=/d', '-rpcport=1', '-bogus'], 'Invalid parameter -bogus'],
    [['-datadir=/d', '-rpcport=1', 'stray'], "Command line contains unexpected token 'stray'"],
    [['-rpcport=1'], '-datadir=<dir> is required'],
    [['-datadir=/d'], '-rpcport=<port> is required'],
    [['-datadir', '-rpcport=1'], '-datadir needs a value'],
    [['-datadir=/d', '-rpcport=x'], 'Invalid value for -rpcport: x'],
    [['-datadir=/d', '-rpcport=65536'], 'Invalid value for -rpcport: 65536'],
    [['-datadir=/d', '-rpcport=1', '-chain=doge'], 'Invalid value for -chain: doge'],
    [['-datadir=/d', '-rpcport=1', '-rest=yes'], 'Invalid value for -rest: yes'],
    [['-datadir=/d', '-rpcport=1', '-blockinterval=-1'], 'Invalid value for -blockinterval: -1'],
    [['-datadir=/d', '-rpcport=1', '-rpcauth=alice:secret'], 'Invalid -rpcauth argument'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseArguments(argv)).toThrow(message);
  });
});

describe('parseArguments with -chain=avalanche', () => {
  const required = ['--network-id=fuji', '--http-port=9650', '--staking-tls-cert-file=/s/staker.crt', '--staking-tls-key-file=/s/staker.key', '--data-dir=/d'];

  it("takes avalanchego's flags, ignoring those that mean nothing here", () => {
    const ignored = [
      '--staking-port=0',
      '--log-dir=/l',
      '--public-ip=127.0.0.1',
      '--http-allowed-hosts=*',
      '--log-display-level=info',
      '--index-enabled=false',
      '--index-enabled',
    ];
    expect(parseArguments(['-chain=avalanche', ...required, '--http-host=0.0.0.0', ...ignored])).toEqual({
      kind: 'avalanche',
      options: { network: 'fuji', host: '0.0.0.0', port: 9650, stakingCertFile: '/s/staker.crt', stakingKeyFile: '/s/staker.key', dataDir: '/d' },
    });
    expect(parseArguments(['--chain=avalanche', ...required.slice(1), '--network-id=12345'])).toMatchObject({
      options: { network: 'local', host: '127.0.0.1' },
    });
    expect(parseArguments(['-chain=avalanche', ...required.slice(1), '--network-id=1'])).toMatchObject({ options: { network: 'mainnet' } });
    expect(parseArguments(['-chain=avalanche', '-version'])).toEqual({ kind: 'version' });
  });

  it.each([
    ...required.map((flag): [string[], string] => [required.filter((other) => other !== flag), `${flag.split('=')[0]}=<value> is required`]),
    [[...required, '--network-id=devnet'], 'Invalid value for --network-id: devnet (expected mainnet, fuji or local)'],
    [[...required, '--http-port=65536'], 'Invalid value for --http-port: 65536'],
    [[...required, '--data-dir='], '--data-dir needs a value'],
    [[...required, '-datadir=/d'], 'Invalid parameter --datadir'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseArguments(['-chain=avalanche', ...argv])).toThrow(message);
  });
});

describe('dist/main.js', () => {
  const datadirs: string[] = [];

  beforeAll(() => {
    // Tests run from the sources; this one needs the built program, so it builds it.
    for (const dir of [chainsDir, packageDir]) {
      execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'pipe' });
    }
    if (!existsSync(mainJs)) throw new Error(`the build did not produce ${mainJs}`);
  }, 180_000);

  afterAll(() => {
    for (const dir of datadirs) rmSync(dir, { recursive: true, force: true });
  });

  it('prints its version like bitcoind -version and exits 0', () => {
    const result = spawnSync(process.execPath, [mainJs, '-version'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('Cloud Dev Chain version v0.1.0');
  });

  it('exits 1 with a message on stderr for an unknown option', () => {
    const result = spawnSync(process.execPath, [mainJs, '-datadir=/tmp/none', '-rpcport=1', '-bogus'], { encoding: 'utf8' });
    expect([result.status, result.stdout, result.stderr]).toEqual([1, '', 'Error: Invalid parameter -bogus\n']);
  });

  /** Starts the program and waits for the port it logs; resolves its exit code when it ends. */
  async function launch(argv: string[]) {
    const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [mainJs, ...argv]);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    for (const deadline = Date.now() + 20_000; !/port (\d+)/.test(stdout); await new Promise((resolve) => setTimeout(resolve, 20))) {
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill('SIGKILL');
        throw new Error(`main.js did not start:\n${stdout}`);
      }
    }
    const port = Number(/port (\d+)/.exec(stdout)?.[1]);
    return { child, exit, port, output: () => stdout };
  }

  it('serves RPC, logs like bitcoind, exits 0 on SIGTERM and on the stop RPC, keeping its chain', async () => {
    const datadir = mkdtempSync(join(tmpdir(), 'dev-chain-cli-'));
    datadirs.push(datadir);
    const argv = [
      '-chain=ltc',
      `-datadir=${datadir}`,
      '-rpcport=0',
      `-rpcauth=${makeRpcAuth('alice', 'secret')}`,
      '-regtest',
      '-disablewallet',
      '-listen=0',
      '-server',
      '-txindex',
    ];
    const first = await launch(argv);
    const target: RpcTarget = {
      url: `http://127.0.0.1:${first.port}`,
      user: 'alice',
      password: 'secret',
      mine: async () => undefined,
      stop: async () => undefined,
    };
    const [hash] = await call<string[]>(target, 'generatetodescriptor', [1, 'raw(51)']);
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    const lines = first.output().trim().split('\n');
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \S/);
    expect(lines).toContainEqual(expect.stringContaining(`UpdateTip: new best=${hash} height=1`));
    expect(lines.slice(-1)[0]).toMatch(/Shutdown: done$/);

    const second = await launch(argv);
    const again: RpcTarget = { ...target, url: `http://127.0.0.1:${second.port}` };
    expect(await call(again, 'getbestblockhash')).toBe(hash);
    expect((await post(again, { id: 1, method: 'stop' })).body).toEqual({ result: 'Cloud Dev Chain stopping', error: null, id: 1 });
    expect(await second.exit).toBe(0);
  });

  describe('in avalanche mode', () => {
    let staking: StakingFiles;

    beforeAll(async () => {
      staking = await makeStakingFiles();
      datadirs.push(staking.dir);
    });

    const argv = (dataDir: string) => [
      '-chain=avalanche',
      '--network-id=local',
      '--http-host=127.0.0.1',
      '--http-port=0',
      `--staking-tls-cert-file=${staking.certFile}`,
      `--staking-tls-key-file=${staking.keyFile}`,
      `--data-dir=${dataDir}`,
      ...['--staking-port=0', '--http-allowed-hosts=*', '--log-display-level=info', '--index-enabled=false'],
    ];

    it("exits 1 naming a missing flag, or a key that is not the certificate's", () => {
      const missing = spawnSync(process.execPath, [mainJs, ...argv('/tmp/none').filter((arg) => !arg.startsWith('--data-dir'))], { encoding: 'utf8' });
      expect([missing.status, missing.stderr]).toEqual([1, 'Error: --data-dir=<value> is required\n']);
      const wrongKey = spawnSync(
        process.execPath,
        [mainJs, ...argv('/tmp/none').map((arg) => (arg.startsWith('--staking-tls-key-file') ? `--staking-tls-key-file=${staking.certFile}` : arg))],
        { encoding: 'utf8' },
      );
      expect([wrongKey.status, wrongKey.stderr]).toEqual([1, `Error: --staking-tls-key-file ${staking.certFile}: not a private key PEM\n`]);
    });

    it("serves avalanchego's API as the certificate's node, logs, and keeps its validators across a SIGTERM", async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'dev-chain-cli-avalanche-'));
      datadirs.push(dataDir);
      const nodeId = avalancheNodeIdFromPem(staking.certPem);
      const first = await launch(argv(dataDir));
      const url = `http://127.0.0.1:${first.port}`;
      expect(await avalanche.call(url, '/ext/info', 'info.getNodeID')).toMatchObject({ nodeID: nodeId });
      const startTime = Math.floor(Date.now() / 1000) + 600;
      const { txID } = await avalanche.call<{ txID: string }>(url, '/ext/dev', 'dev.registerValidator', {
        nodeID: nodeId,
        startTime,
        endTime: startTime + 3600,
        weight: '2000000000000',
      });
      first.child.kill('SIGTERM');
      expect(await first.exit).toBe(0);
      const lines = first.output().trim().split('\n');
      for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \S/);
      expect(lines).toContainEqual(expect.stringContaining(`NodeID ${nodeId} on network local (networkID 12345)`));
      expect(lines).toContainEqual(expect.stringContaining(`Registered validator ${nodeId} txID=${txID}`));
      expect(lines.slice(-1)[0]).toMatch(/Shutdown: done$/);

      const second = await launch(argv(dataDir));
      const again = `http://127.0.0.1:${second.port}`;
      expect(await avalanche.call(again, '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [nodeId] })).toMatchObject({
        validators: [{ txID, startTime: String(startTime) }],
      });
      second.child.kill('SIGINT');
      expect(await second.exit).toBe(0);
    });
  });
});
