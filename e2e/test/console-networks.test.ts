import { startTestPlatform, type TestPlatform } from '@cloud/all-in-one/testing';
import type { CloudClient, Node, Validator } from '@cloud/sdk';
import { checkPhoneScreen, checkScreen, consoleSignedIn, type Browser } from './browser';

// Honest network words and state-aware sync panels in the console (issue 28, items 2 and 5), on
// the default dev chains (LOCAL_NETWORKS=dev): the nodes list, the create dropdown and a
// validator page say "dev chain (…)" and never the image's network (ltc used to say "ltc
// mainnet … (a private dev chain)" while the node said regtest; a validator "avalanche fuji"); a
// new validator reads "Starting", not "Unknown: the P-chain could not be read"; a stopped node's
// sync panel shows its last known height as of when, not a live-looking "100 % · block 39 of 39".

const PASSWORD = 'correct horse 42';

describe('network words and sync panels in the console', () => {
  let platform: TestPlatform;
  let browser: Browser;
  let cloud: CloudClient;
  let node: Node;
  let validator: Validator;

  beforeAll(async () => {
    platform = await startTestPlatform({ CONSOLE_PORT: '0' });
    ({ cloud, browser } = await consoleSignedIn(platform, 'networks@example.com', PASSWORD));
    const created = await cloud.nodes.create({ image: 'ltc' });
    validator = await cloud.staking.create('fuji');
    node = await cloud.nodes.waitUntilRunning(created.id, { intervalMs: 500, timeoutMs: 150_000 });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  const page = () => browser.page;

  it('a new validator reads starting while its node comes up, and its network says dev chain', async () => {
    await page().goto(`${platform.urls.console}/validators/fuji/${validator.nodeId}`);
    const registration = page().getByTestId('registration').locator('[data-registration]');
    await registration.waitFor();
    // Whatever the node's state at this first look, a node coming up is never "Unknown".
    const first = await page().evaluate<{ state: string | null; registration: string | null; text: string }>(`(() => ({
      state: document.querySelector('[data-testid="validator-state"] [data-state]')?.getAttribute('data-state') ?? null,
      registration: document.querySelector('[data-testid="registration"] [data-registration]')?.getAttribute('data-registration') ?? null,
      text: document.querySelector('[data-testid="registration"]')?.textContent ?? '',
    }))()`);
    if (first.state === 'provisioning' || first.state === 'syncing') {
      expect(first.registration).toBe('starting');
      expect(first.text).toMatch(/^Starting: the P-chain is read once its node runs \(its node is /);
      expect(first.text).not.toMatch(/Unknown|could not be read/);
    }

    // Once the nodes service has announced its node: a dev chain, in words, never "fuji".
    await page().getByTestId('validator-network').getByText('avalanche dev chain (simulated P-chain)', { exact: true }).waitFor({ timeout: 60_000 });
    await page().getByTestId('validator-state').locator('[data-state="running"]').waitFor({ timeout: 150_000 });
    await page().locator('[data-testid="registration"] [data-registration]:not([data-registration="starting"])').waitFor();
    expect(await page().getByTestId('validator-network').textContent()).not.toMatch(/fuji/);
    await checkScreen(page(), 'networks-validator');
    await checkPhoneScreen(page(), 'networks-validator-phone');

    await page().goto(`${platform.urls.console}/validators`);
    const row = page().getByRole('row').filter({ hasText: validator.nodeId });
    await row.getByText('avalanche dev chain (simulated P-chain)').waitFor();
  });

  it('the nodes list and the create dropdown say dev chain (regtest), never mainnet', async () => {
    await page().goto(`${platform.urls.console}/nodes`);
    const row = page().locator(`tr[data-node-id="${node.id}"]`);
    await row.getByText('ltc dev chain (regtest)').waitFor();
    expect(await row.textContent()).not.toMatch(/mainnet/);

    const options = await page().getByLabel('Chain', { exact: true }).locator('option').allTextContents();
    expect(options.length).toBeGreaterThan(0);
    expect(options.find((option) => option.startsWith('ltc:'))).toMatch(/^ltc: ltc dev chain \(regtest\), /);
    expect(options.find((option) => option.startsWith('eth:'))).toMatch(/^eth: eth dev chain \(anvil\), /);
    // What follows the image's id (btctestnet is a name): no option names a real network.
    expect(options.filter((option) => /mainnet|testnet/.test(option.replace(/^\w+: /, '')))).toEqual([]);
    await checkScreen(page(), 'networks-nodes');
    await checkPhoneScreen(page(), 'networks-nodes-phone');
  });

  it('a stopped node shows its last known height as of when, not a live-looking 100 %', async () => {
    await page().goto(`${platform.urls.console}/nodes/${node.id}`);
    const panel = page().locator('dd:has([data-sync])').first();
    await panel.locator('[data-sync="live"]').waitFor();
    await cloud.nodes.stop(node.id);
    const stopped = await cloud.nodes.waitUntilStopped(node.id, { intervalMs: 500, timeoutMs: 60_000 });
    const { height, bestKnownHeight } = stopped.sync!;
    await panel.locator('[data-sync="last"]').waitFor();
    const text = (await panel.textContent())!;
    expect(text).toMatch(new RegExp(`^stopped: last known block ${height} of ${bestKnownHeight}, as of \\d`));
    expect(text).not.toMatch(/%/);
    // No progress bar on a node that does not run.
    expect(await panel.locator('progress').count()).toBe(0);
    await checkScreen(page(), 'networks-node-stopped');
    await checkPhoneScreen(page(), 'networks-node-stopped-phone');

    await page().goto(`${platform.urls.console}/nodes`);
    const row = page().locator(`tr[data-node-id="${node.id}"]`);
    await row.getByText(/^stopped: last known block \d+ of \d+, as of /).waitFor();
    expect(await row.locator('progress').count()).toBe(0);
  });
});
