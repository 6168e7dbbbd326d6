import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { nodeRpcPassword } from '@cloud/node-rpc-auth';
import type { NodeSpec } from '../src/domain/node-driver';
import { createLocalDriver, type LocalDriver } from '../src/drivers/local';
import { findOnPath } from '../src/drivers/local/software';
import { blockHeight, crashAndAwaitRestart, jsonRpc, recordedPid, runningEndpoint, testDriverOptions, TEST_RPC_KEY, waitFor } from './rpc-client';

// Real Litecoin Core: LITECOIND_PATH, else litecoind on PATH. CI must have it; elsewhere the tests are skipped.
const litecoind = process.env.LITECOIND_PATH || findOnPath('litecoind');
if (!litecoind && process.env.CI) throw new Error('litecoind is missing: install it or set LITECOIND_PATH');
const describeWithLitecoind = litecoind ? describe : describe.skip;

describeWithLitecoind(`ltc on real litecoind${litecoind ? '' : ' (skipped: litecoind not found; set LITECOIND_PATH)'}`, () => {
  let rootDir: string;
  let driver: LocalDriver;

  beforeAll(async () => {
    rootDir = await mkdtemp(path.join(os.tmpdir(), 'local-driver-ltc-'));
    driver = createLocalDriver(testDriverOptions(rootDir, { binaries: { litecoind } }));
  });

  afterAll(async () => {
    await driver.close({ stopNodes: true });
    await rm(rootDir, { recursive: true, force: true });
  });

  const ltcNode = (large = false): NodeSpec => ({ id: `node-${randomUUID()}`, image: 'ltc', large, dev: true, txindex: false });

  test('chains offers ltc, labelled with the version litecoind reports', async () => {
    const ltc = (await driver.chains()).find((option) => option.image === 'ltc');
    expect(ltc).toMatchObject({ chain: 'ltc', network: 'mainnet' });
    expect(ltc?.software).toMatch(/^litecoin-core-\d+(\.\d+)+$/);
    const version = /version v(\d+(?:\.\d+)+)/.exec(execFileSync(litecoind!, ['-version'], { encoding: 'utf8' }))?.[1];
    expect(ltc?.software).toBe(`litecoin-core-${version}`);
  });

  test('an ltc node answers only its own credentials, mines, logs, and is gone once destroyed', async () => {
    const node = ltcNode(true);
    await driver.ensure(node);
    const endpoint = await runningEndpoint(driver, node.id);
    // Just the URL: the proxy derives the node's credentials itself.
    // A regtest chain of its own has nothing to sync from: not syncing, even before its first block.
    expect(await driver.status(node.id)).toEqual({
      state: 'running',
      endpoint: { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) as unknown },
      sync: { height: expect.any(Number), bestKnownHeight: expect.any(Number), progress: 1, peers: 0, syncing: false, checkedAt: expect.any(Date) },
    });

    const first = await blockHeight(endpoint, 'bitcoin');
    await waitFor('two mined blocks', async () => ((await blockHeight(endpoint, 'bitcoin')) >= first + 2 ? true : undefined), 10_000);
    const info = await jsonRpc(endpoint, 'getblockchaininfo');
    expect(info.result).toMatchObject({ chain: 'regtest' });

    const wrongPassword = `Basic ${Buffer.from('cloud-proxy:not-the-password').toString('base64')}`;
    expect((await jsonRpc({ url: endpoint.url, authorization: wrongPassword }, 'getblockcount')).status).toBe(401);
    expect((await jsonRpc({ url: endpoint.url }, 'getblockcount')).status).toBe(401);
    const rest = await fetch(`${endpoint.url}/rest/chaininfo.json`);
    expect(rest.status).toBe(200);

    const pid = await recordedPid(rootDir, node.id);
    const commandLine = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    expect(commandLine).toEqual(expect.arrayContaining(['-regtest', '-listen=0', '-disablewallet', '-dbcache=1024']));
    // Only a salted hash of the password reaches the command line or the disk.
    const password = nodeRpcPassword(TEST_RPC_KEY, node.id);
    expect(commandLine.join(' ')).not.toContain(password);
    expect(await readFile(path.join(rootDir, node.id, 'node.json'), 'utf8')).not.toContain(password);

    const lines = await driver.logs(node.id, 5);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(5);
    expect(lines.some((line) => line.includes('UpdateTip'))).toBe(true);

    await driver.destroy(node.id);
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    await expect(stat(path.join(rootDir, node.id))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await driver.status(node.id)).toEqual({ state: 'absent' });
  });

  test('a killed litecoind is restarted and keeps its chain', async () => {
    const node = ltcNode();
    await driver.ensure(node);
    let endpoint = await runningEndpoint(driver, node.id);
    await waitFor('a few blocks', async () => ((await blockHeight(endpoint, 'bitcoin')) >= 3 ? true : undefined), 10_000);
    // Past its first blocks litecoind keeps its block index in memory for up to an hour; the
    // driver has it flushed every 5 s.
    expect((await jsonRpc(endpoint, 'generatetodescriptor', [20, 'raw(51)'])).status).toBe(200);
    const before = await blockHeight(endpoint, 'bitcoin');
    await sleep(6000);
    ({ endpoint } = await crashAndAwaitRestart(driver, rootDir, node.id));
    expect(await blockHeight(endpoint, 'bitcoin')).toBeGreaterThanOrEqual(before);
    await driver.destroy(node.id);
  }, 180_000);

  test('mining goes on past the MWEB activation height, which a node without a wallet cannot mine through', async () => {
    const node = ltcNode();
    await driver.ensure(node);
    const endpoint = await runningEndpoint(driver, node.id);
    const mined = await jsonRpc(endpoint, 'generatetodescriptor', [500, 'raw(51)']);
    expect(mined).toMatchObject({ status: 200, error: undefined });
    expect(await blockHeight(endpoint, 'bitcoin')).toBeGreaterThanOrEqual(500);
    await driver.destroy(node.id);
  });
  test('a node kept busy (its RPC work queue full) is not taken for hung: the same process runs on (issue 29, item 7)', async () => {
    // The real daemon with one RPC thread and a work queue of one; probed every second, killed after two misses.
    const wrapper = path.join(rootDir, 'litecoind-small-queue');
    await writeFile(wrapper, `#!/bin/sh\nexec ${litecoind} -rpcthreads=1 -rpcworkqueue=1 "$@"\n`, { mode: 0o755 });
    const busyDriver = createLocalDriver(
      testDriverOptions(rootDir, { binaries: { litecoind: wrapper }, liveness: { intervalMs: 1000, failuresBeforeRestart: 2 } }),
    );
    const node = ltcNode();
    try {
      await busyDriver.ensure(node);
      const endpoint = await runningEndpoint(busyDriver, node.id);
      const pid = await recordedPid(rootDir, node.id);
      // Three loops of short slow calls keep the thread and the queue place taken: the probes meanwhile find the queue full.
      const until = Date.now() + 5000;
      let busy = 0;
      const keepBusy = async () => {
        while (Date.now() < until) {
          const call = {
            method: 'POST',
            headers: { authorization: endpoint.authorization! },
            body: JSON.stringify({ id: 1, method: 'waitforblockheight', params: [1_000_000, 300] }),
          };
          // The daemon closes the connection of a call it refuses: a reused one may fail, the next is new.
          const text = await fetch(endpoint.url, call).then(
            (answer) => answer.text(),
            () => '',
          );
          if (text.includes('Work queue depth exceeded')) {
            busy += 1;
            await sleep(20);
          }
        }
      };
      await Promise.all([keepBusy(), keepBusy(), keepBusy()]);
      expect(busy).toBeGreaterThan(0);
      expect(await recordedPid(rootDir, node.id)).toBe(pid);
      expect((await busyDriver.status(node.id)).state).toBe('running');
      expect((await busyDriver.logs(node.id, 1000)).join('\n')).not.toContain('stopped answering its RPC');
    } finally {
      await busyDriver.close({ stopNodes: true });
    }
  });
});
