import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { avalancheNodeIdFromPem } from '@cloud/chains';
import type { AvalancheDevChain, AvalancheDevChainOptions } from '../src';
import { startAvalancheDevChain } from '../src';
import { call, getFrom, postTo, rpc } from './avalanche-client';
import type { StakingFiles } from './staking-certificate';
import { makeStakingFiles } from './staking-certificate';

// avalanche mode in process: avalanchego's API shapes, validator registration, persistence, errors.

const OTHER_NODE = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg'; // avalanchego's local staker 1
const dirs: string[] = [];
const running: AvalancheDevChain[] = [];
let staking: StakingFiles;

beforeAll(async () => {
  staking = await makeStakingFiles();
  dirs.push(staking.dir);
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((node) => node.stop()));
});

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function newDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dev-chain-avalanche-'));
  dirs.push(dir);
  return dir;
}

async function start(options: Partial<AvalancheDevChainOptions> = {}) {
  const lines: string[] = [];
  const node = await startAvalancheDevChain({
    network: 'fuji',
    host: '127.0.0.1',
    port: 0,
    stakingCertFile: staking.certFile,
    stakingKeyFile: staking.keyFile,
    dataDir: options.dataDir ?? newDataDir(),
    logger: (line) => lines.push(line),
    ...options,
  });
  running.push(node);
  return { node, url: node.url, lines };
}

const now = () => Math.floor(Date.now() / 1000);

function register(url: string, params: Record<string, unknown>) {
  return rpc(url, '/ext/dev', 'dev.registerValidator', params);
}

describe('info and health', () => {
  it('is the node of its staking certificate', async () => {
    const { url, node } = await start();
    const nodeId = avalancheNodeIdFromPem(staking.certPem);
    expect(node.nodeId).toBe(nodeId);
    const { nodeID, nodePOP } = await call<{ nodeID: string; nodePOP: { publicKey: string; proofOfPossession: string } }>(url, '/ext/info', 'info.getNodeID');
    expect(nodeID).toBe(nodeId);
    expect(nodePOP.publicKey).toMatch(/^0x[0-9a-f]{96}$/);
    expect(nodePOP.proofOfPossession).toMatch(/^0x[0-9a-f]{192}$/);
    expect(await call(url, '/ext/info', 'info.isBootstrapped', { chain: 'P' })).toEqual({ isBootstrapped: true });
    expect(await call(url, '/ext/info', 'info.getNodeVersion')).toEqual({ version: 'cloud-dev-chain/0.1.0', vmVersions: {} });
  });

  it.each([
    ['mainnet', '1', '0xa86a'],
    ['fuji', '5', '0xa869'],
    ['local', '12345', '0xa868'],
  ] as const)('answers for %s with network ID %s and C-chain ID %s', async (network, networkID, chainId) => {
    const { url } = await start({ network });
    expect(await call(url, '/ext/info', 'info.getNetworkID')).toEqual({ networkID });
    expect(await call(url, '/ext/info', 'info.getNetworkName')).toEqual({ networkName: network });
    expect(await call(url, '/ext/bc/C/rpc', 'eth_chainId', [])).toBe(chainId);
    expect(await call(url, '/ext/bc/C/rpc', 'web3_clientVersion', [])).toBe('cloud-dev-chain/0.1.0');
  });

  it('serves health as GET pages and over JSON-RPC, always healthy', async () => {
    const { url } = await start();
    const page = await getFrom(url, '/ext/health');
    expect(page.status).toBe(200);
    expect(page.body).toEqual({
      checks: expect.objectContaining({ P: expect.any(Object), C: expect.any(Object), bootstrapped: expect.any(Object) }),
      healthy: true,
    });
    expect((await getFrom(url, '/ext/health/liveness')).body).toEqual({ checks: {}, healthy: true });
    expect((await getFrom(url, '/ext/health/readiness')).body).toEqual({ checks: { bootstrapped: expect.objectContaining({ message: [] }) }, healthy: true });
    expect(await call(url, '/ext/health', 'health.health')).toMatchObject({ healthy: true });
  });

  it('counts C-chain blocks from when the data directory was first used, one every 2 s', async () => {
    const dataDir = newDataDir();
    writeFileSync(join(dataDir, 'validators.json'), JSON.stringify({ genesisTime: now() - 100, validators: [] }));
    const { url } = await start({ dataDir });
    expect(parseInt(await call<string>(url, '/ext/bc/C/rpc', 'eth_blockNumber', []), 16)).toBeGreaterThanOrEqual(50);
  });
});

describe('validators', () => {
  it('lists a registered validator with avalanchego fields, its future start included, and bumps the P-chain height', async () => {
    const { url, node, lines } = await start();
    expect(await call(url, '/ext/bc/P', 'platform.getHeight', {})).toEqual({ height: '0' });
    const startTime = now() + 3600;
    const endTime = startTime + 14 * 24 * 3600;
    const { txID } = await call<{ txID: string }>(url, '/ext/dev', 'dev.registerValidator', {
      nodeID: node.nodeId,
      startTime,
      endTime: String(endTime),
      weight: '2000000000000',
      delegatorWeight: 25000000000,
    });
    expect(txID).toMatch(/^[1-9A-HJ-NP-Za-km-z]{49,50}$/);
    expect(await call(url, '/ext/bc/P', 'platform.getHeight', {})).toEqual({ height: '1' });
    expect(await call(url, '/ext/bc/P', 'platform.getCurrentValidators', {})).toEqual({
      validators: [
        {
          txID,
          startTime: String(startTime),
          endTime: String(endTime),
          weight: '2000000000000',
          nodeID: node.nodeId,
          validationRewardOwner: { locktime: '0', threshold: '0', addresses: [] },
          delegationRewardOwner: { locktime: '0', threshold: '0', addresses: [] },
          potentialReward: String((2000000000000n * 8n * 14n) / (100n * 365n)),
          delegationFee: '2.0000',
          uptime: '0.0000',
          connected: true,
          delegatorCount: '1',
          delegatorWeight: '25000000000',
          delegators: null,
        },
      ],
    });
    expect(lines).toContainEqual(`Registered validator ${node.nodeId} txID=${txID} start=${startTime} end=${endTime} weight=2000000000000 (P-chain height 1)`);
  });

  it('shows a started validator as up, filters by nodeIDs, and leaves out one whose end has passed', async () => {
    const { url, node } = await start();
    await call(url, '/ext/dev', 'dev.registerValidator', { nodeID: node.nodeId, startTime: now() - 60, endTime: now() + 3600, weight: 1 });
    await call(url, '/ext/dev', 'dev.registerValidator', { nodeID: OTHER_NODE, startTime: now() - 60, endTime: now() + 3600, weight: 1 });
    await call(url, '/ext/dev', 'dev.registerValidator', { nodeID: OTHER_NODE, startTime: now() - 7200, endTime: now() - 3600, weight: 1 });
    const all = await call<{ validators: { nodeID: string; uptime: string; connected: boolean }[] }>(url, '/ext/bc/P', 'platform.getCurrentValidators');
    expect(all.validators.map(({ nodeID, uptime, connected }) => [nodeID, uptime, connected]).sort()).toEqual(
      [
        [node.nodeId, '100.0000', true],
        [OTHER_NODE, '0.0000', false],
      ].sort(),
    );
    const mine = await call<{ validators: { nodeID: string }[] }>(url, '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [node.nodeId] });
    expect(mine.validators.map((validator) => validator.nodeID)).toEqual([node.nodeId]);
    expect(await call(url, '/ext/bc/P', 'platform.getHeight')).toEqual({ height: '3' });
  });

  it('keeps its validators across a restart, in validators.json', async () => {
    const dataDir = newDataDir();
    const first = await start({ dataDir });
    const { txID } = await call<{ txID: string }>(first.url, '/ext/dev', 'dev.registerValidator', {
      nodeID: OTHER_NODE,
      startTime: now(),
      endTime: now() + 3600,
      weight: '5',
    });
    await first.node.stop();
    expect(first.lines.slice(-1)).toEqual(['Shutdown: done']);
    expect(readdirSync(dataDir)).toEqual(['validators.json']);
    expect(JSON.parse(readFileSync(join(dataDir, 'validators.json'), 'utf8'))).toMatchObject({ validators: [{ txID, nodeID: OTHER_NODE, weight: '5' }] });

    const second = await start({ dataDir });
    expect(await call(second.url, '/ext/bc/P', 'platform.getHeight')).toEqual({ height: '1' });
    expect(await call(second.url, '/ext/bc/P', 'platform.getCurrentValidators')).toMatchObject({ validators: [{ txID, nodeID: OTHER_NODE }] });
  });

  it.each([
    [{ nodeID: 'NodeID-nope', startTime: 1, endTime: 2, weight: 1 }, /^nodeID must be a NodeID/],
    [{ nodeID: 'MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ', startTime: 1, endTime: 2, weight: 1 }, /^nodeID must be a NodeID/],
    [{ nodeID: OTHER_NODE, startTime: 10, endTime: 10, weight: 1 }, 'endTime (10) must be after startTime (10)'],
    [{ nodeID: OTHER_NODE, startTime: 1, weight: 1 }, /^endTime must be a non-negative integer/],
    [{ nodeID: OTHER_NODE, startTime: '-1', endTime: 2, weight: 1 }, /^startTime must be a non-negative integer/],
    [{ nodeID: OTHER_NODE, startTime: 1, endTime: 2, weight: 0 }, 'weight must be a positive integer of nAVAX'],
    [{ nodeID: OTHER_NODE, startTime: 1, endTime: 2, weight: 1.5 }, /^weight must be a non-negative integer/],
    [{ nodeID: OTHER_NODE, startTime: 1, endTime: 2, weight: '1e9' }, /^weight must be a non-negative integer/],
    [{ nodeID: OTHER_NODE, startTime: 1, endTime: 2, weight: 1, delegatorWeight: 'x' }, /^delegatorWeight must be a non-negative integer/],
  ])('refuses registration %j with -32602', async (params, message) => {
    const { url } = await start();
    const reply = await register(url, params);
    expect(reply.error?.code).toBe(-32602);
    expect(reply.error?.message).toMatch(message);
    expect(await call(url, '/ext/bc/P', 'platform.getHeight')).toEqual({ height: '0' });
  });

  it('refuses a second validation of a node over an overlapping period', async () => {
    const { url } = await start();
    await call(url, '/ext/dev', 'dev.registerValidator', { nodeID: OTHER_NODE, startTime: 100, endTime: 200, weight: 1 });
    expect((await register(url, { nodeID: OTHER_NODE, startTime: 150, endTime: 250, weight: 1 })).error).toEqual({
      code: -32000,
      message: expect.stringMatching(/is already a validator from 100 to 200/),
      data: null,
    });
    expect((await register(url, { nodeID: OTHER_NODE, startTime: 200, endTime: 250, weight: 1 })).error).toBeUndefined();
  });
});

describe('the HTTP and JSON-RPC layer', () => {
  it('answers JSON-RPC 2.0 as avalanchego does, whatever Authorization says', async () => {
    const { url, node } = await start();
    const ok = await postTo(url, '/ext/info', { jsonrpc: '2.0', id: 7, method: 'info.getNodeID' }, { Authorization: 'Basic bm9ib2R5Om5vdGhpbmc=' });
    expect([ok.status, ok.body]).toEqual([200, { jsonrpc: '2.0', result: expect.objectContaining({ nodeID: node.nodeId }), id: 7 }]);
    const unknown = await postTo(url, '/ext/info', { jsonrpc: '2.0', id: 1, method: 'info.nothing' });
    expect([unknown.status, unknown.body]).toEqual([
      200,
      { jsonrpc: '2.0', error: { code: -32601, message: 'rpc: can\'t find method "info.nothing"', data: null }, id: 1 },
    ]);
    expect((await rpc(url, '/ext/bc/C/rpc', 'eth_nothing', [])).error).toEqual({
      code: -32601,
      message: 'the method eth_nothing does not exist/is not available',
      data: null,
    });
    expect((await postTo(url, '/ext/bc/P', '{"jsonrpc":')).body).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 }, id: null });
    expect((await postTo(url, '/ext/bc/P', { id: 1, method: 'platform.getHeight' })).body).toMatchObject({
      error: { code: -32600, message: 'jsonrpc must be 2.0' },
      id: 1,
    });
    expect((await postTo(url, '/ext/bc/P', [{ jsonrpc: '2.0', id: 1, method: 'platform.getHeight' }])).body).toMatchObject({ error: { code: -32600 } });
    expect((await rpc(url, '/ext/info', 'info.isBootstrapped', {})).error).toMatchObject({ code: -32602 });
    expect((await rpc(url, '/ext/info', 'info.isBootstrapped', ['P'])).error).toMatchObject({ code: -32602 });
    expect((await rpc(url, '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: ['bad'] })).error).toMatchObject({ code: -32602 });
    const notification = await postTo(url, '/ext/info', { jsonrpc: '2.0', method: 'info.getNodeID' });
    expect([notification.status, notification.text]).toEqual([200, '']);
    // gorilla keeps the id as raw JSON: echoed as written, even where JSON.parse would change it.
    for (const id of ['12345678901234567890', '1e400', '-0']) {
      const echoed = await postTo(url, '/ext/info', `{"jsonrpc":"2.0","id":${id},"method":"info.getNodeID"}`);
      expect([id, /"id":([^}]*)\}\s*$/.exec(echoed.text)?.[1]]).toEqual([id, id]);
    }
  });

  it('answers 404 for an unknown path, 405 for a wrong HTTP method, 415 for a body that is not JSON', async () => {
    const { url } = await start();
    const missing = await postTo(url, '/ext/bc/X', { jsonrpc: '2.0', id: 1, method: 'avm.getHeight' });
    expect([missing.status, missing.text]).toEqual([404, '404 page not found\n']);
    const get = await getFrom(url, '/ext/info');
    expect([get.status, get.text]).toEqual([405, 'rpc: POST method required, received GET\n']);
    expect((await postTo(url, '/ext/health/liveness', {})).status).toBe(405);
    const form = await postTo(url, '/ext/info', 'a=b', { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect([form.status, form.text]).toEqual([415, 'rpc: unrecognized Content-Type: application/x-www-form-urlencoded\n']);
  });
});

describe('start-up checks', () => {
  it("refuses a key that is not the certificate's, a key file that holds no key, and a certificate file that holds none", async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const otherKeyFile = join(staking.dir, 'other.key');
    writeFileSync(otherKeyFile, other);
    await expect(start({ stakingKeyFile: otherKeyFile })).rejects.toThrow(
      `--staking-tls-key-file ${otherKeyFile} does not match the public key of the certificate in ${staking.certFile}`,
    );
    await expect(start({ stakingKeyFile: staking.certFile })).rejects.toThrow(`--staking-tls-key-file ${staking.certFile}: not a private key PEM`);
    await expect(start({ stakingCertFile: staking.keyFile })).rejects.toThrow(/^--staking-tls-cert-file .*: not a certificate/);
    await expect(start({ stakingCertFile: join(staking.dir, 'none.crt') })).rejects.toThrow(/^--staking-tls-cert-file: cannot read /);
  });

  it('refuses a validators.json it cannot read, rather than starting empty', async () => {
    const dataDir = newDataDir();
    writeFileSync(join(dataDir, 'validators.json'), '{"validators": 3}');
    await expect(start({ dataDir })).rejects.toThrow('not a validator registry');
    expect(existsSync(join(dataDir, 'validators.json'))).toBe(true);
  });
});
