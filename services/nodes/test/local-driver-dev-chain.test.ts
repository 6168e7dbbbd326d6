import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NodeSpec } from '../src/domain/node-driver';
import { createLocalDriver, type LocalDriver } from '../src/drivers/local';
import { blockHeight, crashAndAwaitRestart, jsonRpc, recordedPid, runningEndpoint, testDriverOptions, waitFor } from './rpc-client';

// The dev chain runs from its build (packages/dev-chain/dist/main.js): CI builds it before the
// tests; elsewhere `npm run build -w packages/dev-chain` does, and the tests are skipped until then.
const devChainBuilt = existsSync(path.join(__dirname, '..', '..', '..', 'packages', 'dev-chain', 'dist', 'main.js'));
if (!devChainBuilt && process.env.CI) throw new Error('the dev chain is not built: npm run build -w packages/dev-chain');
const describeWithDevChain = devChainBuilt ? describe : describe.skip;

describeWithDevChain(`btc and bch on the dev chain${devChainBuilt ? '' : ' (skipped: build packages/dev-chain first)'}`, () => {
  let rootDir: string;
  let driver: LocalDriver;

  beforeAll(async () => {
    rootDir = await mkdtemp(path.join(os.tmpdir(), 'local-driver-dev-chain-'));
    driver = createLocalDriver(testDriverOptions(rootDir));
  });

  afterAll(async () => {
    await driver.close({ stopNodes: true });
    await rm(rootDir, { recursive: true, force: true });
  });

  test('chains offers every btc and bch image on the dev chain, labelled with its version', async () => {
    const chains = await driver.chains();
    const manifest = JSON.parse(await readFile(require.resolve('@cloud/dev-chain/package.json'), 'utf8')) as { version: string };
    for (const image of ['btc', 'btctestnet', 'bch', 'bchtestnet']) {
      expect(chains.find((option) => option.image === image)?.software).toBe(`cloud-dev-chain-${manifest.version}`);
    }
  });

  test('a btc node on the dev chain answers only its own credentials, mines, and is gone once destroyed', async () => {
    const node: NodeSpec = { id: `node-${randomUUID()}`, image: 'btc', large: false, dev: true, txindex: false };
    await driver.ensure(node);
    const endpoint = await runningEndpoint(driver, node.id);
    expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const first = await blockHeight(endpoint, 'bitcoin');
    await waitFor('two mined blocks', async () => ((await blockHeight(endpoint, 'bitcoin')) >= first + 2 ? true : undefined), 10_000);
    const wrongPassword = `Basic ${Buffer.from('cloud-proxy:not-the-password').toString('base64')}`;
    expect((await jsonRpc({ url: endpoint.url, authorization: wrongPassword }, 'getblockcount')).status).toBe(401);

    const pid = await recordedPid(rootDir, node.id);
    const commandLine = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    expect(commandLine).toContain('-chain=btc');
    expect((await driver.logs(node.id, 5)).length).toBeGreaterThan(0);

    await driver.destroy(node.id);
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    await expect(stat(path.join(rootDir, node.id))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('a killed dev chain is restarted and keeps its chain', async () => {
    const node: NodeSpec = { id: `node-${randomUUID()}`, image: 'bch', large: false, dev: true, txindex: false };
    await driver.ensure(node);
    let endpoint = await runningEndpoint(driver, node.id);
    await waitFor('a few blocks', async () => ((await blockHeight(endpoint, 'bitcoin')) >= 3 ? true : undefined), 10_000);
    const before = await blockHeight(endpoint, 'bitcoin');
    await sleep(1000);
    ({ endpoint } = await crashAndAwaitRestart(driver, rootDir, node.id));
    expect(await blockHeight(endpoint, 'bitcoin')).toBeGreaterThanOrEqual(before);
    await driver.destroy(node.id);
  });
});
