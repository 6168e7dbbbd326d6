import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NodeSpec } from '../src/domain/node-driver';
import { createLocalDriver, type LocalDriver, type LocalDriverOptions } from '../src/drivers/local';
import { blockHeight, recordedPid, runningEndpoint, testDriverOptions, TEST_RPC_KEY, waitFor } from './rpc-client';

let rootDir: string;
const drivers: LocalDriver[] = [];
let serviceA: ChildProcess | undefined;

function newDriver(overrides: Partial<LocalDriverOptions> = {}): LocalDriver {
  const driver = createLocalDriver(testDriverOptions(rootDir, overrides));
  drivers.push(driver);
  return driver;
}

async function script(name: string, body: string): Promise<string> {
  const file = path.join(rootDir, name);
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}

/** Processes whose command line names `dir` (zombies have none): what runs for the nodes under it. */
async function processesUnder(dir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const commandLine = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (commandLine.split('\0').some((arg) => arg.includes(dir))) pids.push(Number(entry));
  }
  return pids;
}

beforeAll(async () => {
  rootDir = await mkdtemp(path.join(os.tmpdir(), 'local-driver-failures-'));
});

afterAll(async () => {
  serviceA?.kill('SIGKILL');
  await Promise.all(drivers.map((driver) => driver.close({ stopNodes: true })));
  // A safety net should a test fail half-way: nothing started here outlives the run.
  for (const pid of await processesUnder(path.join(rootDir, 'node-'))) process.kill(pid, 'SIGKILL');
  await rm(rootDir, { recursive: true, force: true });
});

test('software that exits at once ends `failed`, with the exit and its output in the reason, and is not restarted again', async () => {
  const litecoind = await script('failing-litecoind', 'echo "Error: cannot obtain a lock on the data directory" >&2\nexit 1');
  const driver = newDriver({ binaries: { litecoind }, restart: { initialDelayMs: 50, maxDelayMs: 200 } });
  const node: NodeSpec = { id: `node-${randomUUID()}`, image: 'ltc', large: false, dev: true, txindex: false };
  await driver.ensure(node);

  const status = await waitFor('the node to fail', async () => {
    const current = await driver.status(node.id);
    return current.state === 'failed' ? current : undefined;
  });
  expect(status.reason).toContain('exited with code 1');
  expect(status.reason).toContain('5 times');
  expect(status.reason).toContain('cannot obtain a lock');

  const starts = async () => (await driver.logs(node.id, 1000)).filter((line) => line.includes('] started ')).length;
  expect(await starts()).toBe(5);
  await sleep(1000);
  expect(await starts()).toBe(5);
  expect((await driver.status(node.id)).state).toBe('failed');
  await driver.destroy(node.id);
  expect(await driver.status(node.id)).toEqual({ state: 'absent' });
});

test('a node that stops answering its RPC (hung) is killed and restarted', async () => {
  const driver = newDriver({ liveness: { intervalMs: 300, failuresBeforeRestart: 3 } });
  const node: NodeSpec = { id: `node-${randomUUID()}`, image: 'eth', large: false, dev: true, txindex: false };
  await driver.ensure(node);
  await runningEndpoint(driver, node.id);
  const hung = await recordedPid(rootDir, node.id);

  process.kill(hung, 'SIGSTOP');
  await waitFor('the hung process to be replaced', async () => {
    return (await recordedPid(rootDir, node.id)) !== hung ? true : undefined;
  });
  const endpoint = await runningEndpoint(driver, node.id);
  expect(await blockHeight(endpoint, 'ethereum')).toBeGreaterThanOrEqual(0);
  expect(await processesUnder(path.join(rootDir, node.id))).not.toContain(hung);
  expect((await driver.logs(node.id, 100)).some((line) => line.includes('stopped answering its RPC (3 probes in a row)'))).toBe(true);
  await driver.destroy(node.id);
});

test('chains names the software as each binary reports it, and leaves out one that reports no version', async () => {
  const bitcoind = await script('fake-bitcoind', 'echo "Foo Bar Daemon version v9.8.7-gabcdef"\necho "Copyright (C) somebody"');
  const litecoind = await script('no-version-litecoind', 'exit 1');
  const chains = await newDriver({ binaries: { bitcoind, litecoind } }).chains();
  const software = Object.fromEntries(chains.map((option) => [option.image, option.software]));
  expect(software).toMatchObject({ btc: 'foo-bar-9.8.7', btctestnet: 'foo-bar-9.8.7' });
  expect(software.ltc).toBeUndefined();
  expect(chains.find((option) => option.image === 'btctestnet')).toMatchObject({ chain: 'btc', network: 'testnet' });
});

test('a node unknown here is absent, and release, stop, destroy and logs succeed for it', async () => {
  const driver = newDriver();
  const nodeId = `node-${randomUUID()}`;
  expect(await driver.status(nodeId)).toEqual({ state: 'absent' });
  await expect(driver.release(nodeId)).resolves.toBeUndefined();
  await expect(driver.stop(nodeId)).resolves.toBeUndefined();
  await expect(driver.destroy(nodeId)).resolves.toBeUndefined();
  expect(await driver.logs(nodeId, 10)).toEqual([]);
  expect(await driver.logs('../..', 10)).toEqual([]);
  await expect(driver.destroy('../..')).rejects.toThrow('not a node id');
  await expect(driver.stop('../..')).rejects.toThrow('not a node id');
});

// The service as a process of its own, running the driver from source, so it can be SIGKILLed
// like a crashed service: its node process is left behind.
const SERVICE_A = `
const fs = require('node:fs');
const swc = require('@swc/core');
require.extensions['.ts'] = (module, file) => module._compile(swc.transformSync(fs.readFileSync(file, 'utf8'),
  { filename: file, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }).code, file);
const { createLocalDriver } = require('./src/drivers/local');
const { createLogger } = require('@cloud/logging');
const { exitOnShutdownSignal } = require('@cloud/http');
const { rootDir, secretKey, node } = JSON.parse(process.argv[1]);
const logger = createLogger({ service: 'service-a', level: 'silent' });
const driver = createLocalDriver({ rootDir, secretKey: Buffer.from(secretKey, 'hex'), ethChainId: 31337, blockIntervalSeconds: 1, binaries: {}, logger });
// As main.ts stops the service: SIGTERM closes the driver, then the process exits.
exitOnShutdownSignal(logger, () => driver.close());
driver.ensure(node).then(async function report() {
  const status = await driver.status(node.id);
  if (status.state === 'running') process.stdout.write('running\\n'); else setTimeout(report, 100);
});
`;

/** Service A, in a process of its own, running `node`; resolves once the node runs. */
async function startServiceA(node: NodeSpec): Promise<ChildProcess> {
  const service = spawn(
    process.execPath,
    ['--conditions=@cloud/source', '-e', SERVICE_A, JSON.stringify({ rootDir, secretKey: TEST_RPC_KEY.toString('hex'), node })],
    {
      cwd: path.join(__dirname, '..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  serviceA = service;
  let output = '';
  service.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitFor('service A to run the node', () => (output.includes('running') ? true : undefined));
  return service;
}

test('a node left running by a crashed instance keeps serving, and the next instance adopts it: never two, never restarted', async () => {
  const node: NodeSpec = { id: `node-${randomUUID()}`, image: 'eth', large: false, dev: true, txindex: false };
  const nodeDir = path.join(rootDir, node.id);
  serviceA = await startServiceA(node);
  const record = JSON.parse(await readFile(path.join(nodeDir, 'node.json'), 'utf8')) as { pid: number; rpcPort: number };
  const leftBehind = record.pid;
  expect(await processesUnder(nodeDir)).toEqual([leftBehind]);

  const exited = new Promise((resolve) => serviceA?.once('exit', resolve));
  serviceA.kill('SIGKILL');
  await exited;
  // Its supervisor gone, the node still answers, and keeps doing so: its output goes to a file, not to a dead pipe.
  const direct = { url: `http://127.0.0.1:${record.rpcPort}` };
  const before = await blockHeight(direct, 'ethereum');
  for (let call = 0; call < 20; call += 1) await blockHeight(direct, 'ethereum');
  expect(await processesUnder(nodeDir)).toEqual([leftBehind]);

  const driverB = newDriver();
  await driverB.ensure(node);
  // Running as soon as adopted: never announced `starting` (refused by the proxy) while it serves.
  expect((await driverB.status(node.id)).state).toBe('running');
  const endpoint = await runningEndpoint(driverB, node.id);
  expect(endpoint.url).toBe(direct.url);
  expect(await blockHeight(endpoint, 'ethereum')).toBeGreaterThanOrEqual(before); // the same chain, not a new one
  expect(await processesUnder(nodeDir)).toEqual([leftBehind]);
  // What the node printed while nobody supervised it (a line per call) reaches the log too, redacted as ever.
  const log = await waitFor('the calls made meanwhile to reach the log', async () => {
    const text = (await driverB.logs(node.id, 500)).join('\n');
    return (text.match(/^eth_blockNumber$/gm) ?? []).length >= 22 ? text : undefined;
  });
  expect(log).toMatch(new RegExp(`adopted anvil-[0-9.]+ pid ${leftBehind}, left running by an earlier instance of the service`));
  expect(log).toContain('(0) [redacted: private key]');
  expect((await readFile(path.join(nodeDir, 'node.out'), 'utf8')).length).toBeLessThan(200); // emptied once read

  await driverB.stop(node.id);
  expect(await processesUnder(nodeDir)).toEqual([]);
  expect(await driverB.status(node.id)).toEqual({ state: 'absent' });
  await driverB.destroy(node.id);
});

test('a service stopped with SIGTERM leaves its node running, and the next instance adopts it at once: the same pid, answering throughout (issue 29, item 6)', async () => {
  const node: NodeSpec = { id: `node-${randomUUID()}`, image: 'eth', large: false, dev: true, txindex: false };
  const nodeDir = path.join(rootDir, node.id);
  const service = await startServiceA(node);
  const record = JSON.parse(await readFile(path.join(nodeDir, 'node.json'), 'utf8')) as { pid: number; rpcPort: number };
  const direct = { url: `http://127.0.0.1:${record.rpcPort}` };
  const before = await blockHeight(direct, 'ethereum');
  // Calls keep coming while the service stops: every one is answered.
  let calling = true;
  const failed: string[] = [];
  const calls = (async () => {
    while (calling) {
      await blockHeight(direct, 'ethereum').catch((error: unknown) => failed.push(String(error)));
      await sleep(20);
    }
  })();
  const driverB = newDriver();
  try {
    const exited = new Promise<number | null>((resolve) => service.once('exit', resolve));
    service.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await processesUnder(nodeDir)).toEqual([record.pid]);
    // node.json names no supervisor now: the next instance need not wait for the stopped one.
    expect(JSON.parse(await readFile(path.join(nodeDir, 'node.json'), 'utf8'))).toEqual({ image: 'eth', rpcPort: record.rpcPort, pid: record.pid });

    await driverB.ensure(node);
    expect((await driverB.status(node.id)).state).toBe('running');
    expect((await runningEndpoint(driverB, node.id)).url).toBe(direct.url);
  } finally {
    calling = false;
    await calls;
  }
  expect(failed).toEqual([]);
  expect(await blockHeight(direct, 'ethereum')).toBeGreaterThanOrEqual(before);
  expect(await processesUnder(nodeDir)).toEqual([record.pid]);
  const log = (await driverB.logs(node.id, 10_000)).join('\n');
  expect(log).toContain(`left anvil-`);
  expect(log).toMatch(new RegExp(`adopted anvil-[0-9.]+ pid ${record.pid}, left running by an earlier instance of the service`));
  await driverB.destroy(node.id);
});

test('an instance that is alive keeps its node: another one waits rather than adopt it or start a second, and starts it once released', async () => {
  const node: NodeSpec = { id: `node-${randomUUID()}`, image: 'eth', large: false, dev: true, txindex: false };
  const nodeDir = path.join(rootDir, node.id);
  const driverA = newDriver();
  await driverA.ensure(node);
  await runningEndpoint(driverA, node.id);
  const first = await recordedPid(rootDir, node.id);

  // B takes the lease while A, cut off, has not heard yet (the same folder: the same machine).
  const driverB = newDriver();
  await driverB.ensure(node);
  await sleep(1500);
  expect(await driverB.status(node.id)).toEqual({ state: 'starting' });
  expect(await processesUnder(nodeDir)).toEqual([first]);
  expect((await driverB.logs(node.id, 50)).join('\n')).toContain(`waiting: pid ${first} runs this node under another instance of the service`);

  await driverA.release(node.id); // A learns it lost the lease
  const endpoint = await runningEndpoint(driverB, node.id);
  expect(await blockHeight(endpoint, 'ethereum')).toBeGreaterThanOrEqual(0);
  const running = await processesUnder(nodeDir);
  expect(running).toHaveLength(1);
  expect(running[0]).not.toBe(first);
  await driverB.destroy(node.id);
});

test('ensure fails once the driver is closed', async () => {
  const driver = newDriver();
  await driver.close();
  await expect(driver.ensure({ id: `node-${randomUUID()}`, image: 'eth', large: false, dev: true, txindex: false })).rejects.toThrow('closed');
});
