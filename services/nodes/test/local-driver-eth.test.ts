import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NodeSpec } from '../src/domain/node-driver';
import { createLocalDriver, type LocalDriver } from '../src/drivers/local';
import { blockHeight, crashAndAwaitRestart, jsonRpc, recordedPid, runningEndpoint, testDriverOptions, waitFor } from './rpc-client';

// Real anvil from the @foundry-rs/anvil-<platform>-<arch> package (an optional dependency).
let rootDir: string;
let driver: LocalDriver;

beforeAll(async () => {
  rootDir = await mkdtemp(path.join(os.tmpdir(), 'local-driver-eth-'));
  driver = createLocalDriver(testDriverOptions(rootDir));
});

afterAll(async () => {
  await driver.close({ stopNodes: true });
  await rm(rootDir, { recursive: true, force: true });
});

const ethNode = (): NodeSpec => ({ id: `node-${randomUUID()}`, image: 'eth', large: false, dev: true, txindex: false });

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

test('chains offers eth, labelled with the version the anvil binary reports', async () => {
  const chains = await driver.chains();
  const eth = chains.find((option) => option.image === 'eth');
  expect(eth).toMatchObject({ chain: 'eth', network: 'mainnet' });
  expect(eth?.software).toMatch(/^anvil-\d+\.\d+\.\d+$/);
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const anvil = path.join(path.dirname(require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`)), 'bin', 'anvil');
  const version = /(\d+\.\d+\.\d+)/.exec(execFileSync(anvil, ['--version'], { encoding: 'utf8' }))?.[1];
  expect(eth?.software).toBe(`anvil-${version}`);
});

test('an eth node runs anvil until destroyed: blocks grow, then process, port and directory are gone', async () => {
  const node = ethNode();
  await driver.ensure(node);
  expect(['starting', 'running']).toContain((await driver.status(node.id)).state);
  const endpoint = await runningEndpoint(driver, node.id);
  expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  // anvil's chain is its own: never syncing; it does not count peers (net_peerCount), so peers is null.
  expect(await driver.status(node.id)).toEqual({
    state: 'running',
    endpoint: { url: endpoint.url },
    sync: { height: expect.any(Number), bestKnownHeight: expect.any(Number), progress: 1, peers: null, syncing: false, checkedAt: expect.any(Date) },
  });

  const chainId = await jsonRpc(endpoint, 'eth_chainId');
  expect(chainId).toMatchObject({ status: 200, result: '0x7a69' });
  // Funded dev accounts, but not anvil's public default ones ("test test … junk": 0xf39F…2266 first).
  const accounts = await jsonRpc(endpoint, 'eth_accounts');
  expect(accounts).toMatchObject({ status: 200, result: expect.arrayContaining([expect.stringMatching(/^0x[0-9a-fA-F]{40}$/)]) });
  expect((accounts.result as string[]).map((account) => account.toLowerCase())).not.toContain('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
  const first = await blockHeight(endpoint, 'ethereum');
  await sleep(2500);
  expect(await blockHeight(endpoint, 'ethereum')).toBeGreaterThanOrEqual(first + 2);

  const pid = await recordedPid(rootDir, node.id);
  await driver.ensure(node);
  expect(await recordedPid(rootDir, node.id)).toBe(pid);

  const lines = await driver.logs(node.id, 5);
  expect(lines.length).toBeGreaterThan(0);
  expect(lines.length).toBeLessThanOrEqual(5);
  expect(lines.some((line) => /Block (Number|Hash|Time)/.test(line))).toBe(true);

  await driver.destroy(node.id);
  expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  expect(await canListen(Number(new URL(endpoint.url).port))).toBe(true);
  await expect(stat(path.join(rootDir, node.id))).rejects.toMatchObject({ code: 'ENOENT' });
  expect(await driver.status(node.id)).toEqual({ state: 'absent' });
  expect(await driver.logs(node.id, 5)).toEqual([]);
});

test('a killed anvil is restarted with its chain, and a released node starts again where it was', async () => {
  const node = ethNode();
  await driver.ensure(node);
  let endpoint = await runningEndpoint(driver, node.id);
  await waitFor('a few blocks', async () => ((await blockHeight(endpoint, 'ethereum')) >= 3 ? true : undefined));
  const before = await blockHeight(endpoint, 'ethereum');
  await sleep(6000); // anvil dumps its state every 5 s
  const crash = await crashAndAwaitRestart(driver, rootDir, node.id);
  const { killed, restarted } = crash;
  endpoint = crash.endpoint;
  expect(() => process.kill(killed, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  expect(await blockHeight(endpoint, 'ethereum')).toBeGreaterThanOrEqual(before);
  expect((await driver.logs(node.id, 100)).some((line) => line.includes('was killed by SIGKILL'))).toBe(true);

  const released = await blockHeight(endpoint, 'ethereum');
  await driver.release(node.id);
  expect(await driver.status(node.id)).toEqual({ state: 'absent' });
  expect(() => process.kill(restarted, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  await expect(stat(path.join(rootDir, node.id, 'data', 'anvil-state.json'))).resolves.toBeDefined();

  await driver.ensure(node);
  endpoint = await runningEndpoint(driver, node.id);
  expect(await blockHeight(endpoint, 'ethereum')).toBeGreaterThanOrEqual(released);
  await driver.destroy(node.id);
}, 180_000);
