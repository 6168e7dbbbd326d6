import { startTestPlatform, type TestPlatform } from '@cloud/all-in-one/testing';
import type { CloudClient, Node } from '@cloud/sdk';
import { checkPhoneScreen, checkScreen, consoleSignedIn, type Browser } from './browser';

// Pools in the web console (issue 31): the Pools page offers your nodes of one chain with check
// boxes, creates a pool of two of them, lists it with its members; its page shows the pool's own
// credential once with the lines ready to paste, its endpoints, and each member's state and
// whether it takes calls, its usage, and a form that replaces its members; the API's words for what
// it refuses; delete after a confirmation.
// Screenshots as console.test.ts takes them, pools-*.

const PASSWORD = 'correct horse 42';

describe('pools in the web console', () => {
  let platform: TestPlatform;
  let browser: Browser;
  let cloud: CloudClient;
  let named: Node;
  let unnamed: Node;
  let other: Node;
  let poolId: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ CONSOLE_PORT: '0' });
    ({ cloud, browser } = await consoleSignedIn(platform, 'pools@example.com', PASSWORD));
    // Two nodes of one chain to pool, and one of another chain, which the eth choice must not offer.
    const created = [
      await cloud.nodes.create({ image: 'eth', name: 'eth one' }),
      await cloud.nodes.create({ image: 'eth' }),
      await cloud.nodes.create({ image: 'ltc' }),
    ];
    [named, unnamed, other] = (await Promise.all(created.map((node) => cloud.nodes.waitUntilRunning(node.id, { intervalMs: 500, timeoutMs: 150_000 })))) as [
      Node,
      Node,
      Node,
    ];
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  const page = () => browser.page;

  it('creates a pool from two nodes of one chain, chosen with check boxes, and lists it with its members', async () => {
    await page().goto(`${platform.urls.console}/pools`);
    await page().getByRole('heading', { name: 'Pools', level: 1 }).waitFor();
    await page().getByText('No pools yet: create one below.').waitFor();

    // The chains of your nodes, each with its count; eth's members offered, never the ltc node.
    const chain = page().getByLabel('Chain', { exact: true });
    const options = await chain.locator('option').allTextContents();
    expect(options.sort()).toEqual(['eth · eth dev chain (anvil) (2 nodes)', 'ltc · ltc dev chain (regtest) (1 node)']);
    await chain.selectOption({ label: 'eth · eth dev chain (anvil) (2 nodes)' });
    const members = page().getByRole('group', { name: 'Members' });
    expect(await members.getByRole('checkbox').count()).toBe(2);
    expect(await members.textContent()).not.toContain(other.id);
    const create = page().getByRole('button', { name: 'Create the pool' });
    // Nothing to pool until a member is chosen.
    expect(await create.isDisabled()).toBe(true);
    await members.getByLabel('eth one').check();
    await members.getByLabel(unnamed.id).check();

    // A name of spaces only: the API's words in the alert (the field named), nothing created.
    await page().getByLabel('Name', { exact: true }).fill('   ');
    await create.click();
    const refused = page().getByRole('alert').filter({ hasText: 'InvalidInput' });
    await refused.getByText(/^Name: /).waitFor();
    expect(await cloud.pools.list()).toEqual([]);
    // 0 to 10,000 blocks, as the API takes (the SDK's LIMITS).
    const lag = page().getByLabel('Largest lag, in blocks');
    expect([await lag.getAttribute('min'), await lag.getAttribute('max'), await lag.inputValue()]).toEqual(['0', '10000', '5']);
    await lag.fill('3');

    await page().getByLabel('Name', { exact: true }).fill('payments');
    await create.click();
    const row = page().locator('tr[data-pool-id]');
    await row.waitFor();
    poolId = (await row.getAttribute('data-pool-id'))!;
    expect(poolId).toMatch(/^pool-[0-9a-f-]{36}$/);
    await row.getByRole('link', { name: 'payments', exact: true }).waitFor();
    expect(await row.locator('[data-member]').evaluateAll((items) => items.map((item) => item.getAttribute('data-member')))).toEqual([named.id, unnamed.id]);
    await row.getByText('eth · eth dev chain (anvil)').waitFor();
    // The boxes are clear again for the next pool.
    expect(await members.getByLabel('eth one').isChecked()).toBe(false);

    // What the API stored.
    const stored = await cloud.pools.get(poolId);
    expect(stored).toMatchObject({
      name: 'payments',
      image: 'eth',
      dev: true,
      maxLagBlocks: 3,
      members: [{ nodeId: named.id, name: 'eth one' }, { nodeId: unnamed.id }],
    });
    await checkScreen(page(), 'pools-01-list');
    await checkPhoneScreen(page(), 'pools-02-list-phone');
  });

  it("shows the pool's credential once, its endpoints, and each member's state and whether it takes calls", async () => {
    await page().getByRole('status').getByRole('link', { name: 'payments' }).click();
    await page().getByRole('heading', { name: 'payments', level: 1 }).waitFor();
    expect(await page().getByTestId('pool-id').textContent()).toBe(poolId);

    // The pool's own credential, shown this once, in its ready lines.
    const user = (await page().getByTestId('pool-user').textContent())!.trim();
    const password = (await page().getByTestId('pool-password').textContent())!.trim();
    expect(user).toMatch(/^u[0-9a-f]+$/);
    const curl = (await page().getByTestId('ready-lines').locator('[data-ready-line="curl"] pre').textContent())!;
    expect(curl).toContain(password);
    expect(curl).toContain((await cloud.pools.get(poolId)).endpoints.jsonRpc);
    await page()
      .getByTestId('endpoints')
      .getByText((await cloud.pools.get(poolId)).endpoints.jsonRpc)
      .waitFor();

    // Both members run, synced: both take calls.
    const table = page().getByTestId('pool-member-table');
    for (const node of [named, unnamed]) {
      const member = table.locator(`tr[data-member="${node.id}"]`);
      await member.locator('[data-state="running"]').waitFor();
      await member.locator('[data-serves="true"]').getByText('Yes: serves calls').waitFor();
    }
    await page().getByTestId('pool-health').getByText('2 of 2 members serve calls').waitFor();
    // Its usage, as a node's (none yet: read from the pool's own usage).
    await page().getByRole('heading', { name: 'Usage' }).waitFor();
    await page().getByTestId('usage-empty').waitFor();
    await checkScreen(page(), 'pools-03-pool');

    // Hidden once copied, and not shown again on the next visit.
    await page().getByRole('button', { name: 'I have copied it: hide the password' }).click();
    expect(await page().getByTestId('pool-password').count()).toBe(0);
    expect(await page().getByTestId('ready-lines').textContent()).toContain('<password>');

    // A member that stops takes no calls; the page follows without a reload.
    await cloud.nodes.stop(unnamed.id);
    await table.locator(`tr[data-member="${unnamed.id}"] [data-serves="false"]`).waitFor({ timeout: 60_000 });
    await page().getByTestId('pool-health').getByText('1 of 2 members serve calls').waitFor();
    await checkPhoneScreen(page(), 'pools-04-pool-phone');
  });

  it('replaces the members and the lag bound; the API stores them and the page shows them', async () => {
    const edit = page().getByTestId('pool-members-edit');
    expect(await edit.getByLabel('eth one').isChecked()).toBe(true);
    await edit.getByLabel(unnamed.id).uncheck();
    await page().getByLabel('Largest lag, in blocks').fill('7');
    await page().getByRole('button', { name: 'Save the changes' }).click();
    await page().getByText('Saved: every proxy takes the change within a second.').waitFor();
    const table = page().getByTestId('pool-member-table');
    await table.locator(`tr[data-member="${unnamed.id}"]`).waitFor({ state: 'detached' });
    await page().getByTestId('pool-health').getByText('1 of 1 member serves calls').waitFor();
    expect(await cloud.pools.get(poolId)).toMatchObject({ maxLagBlocks: 7, members: [{ nodeId: named.id }] });
    // A pool needs a member: nothing to save without one.
    await edit.getByLabel('eth one').uncheck();
    expect(await page().getByRole('button', { name: 'Save the changes' }).isDisabled()).toBe(true);
    await edit.getByLabel('eth one').check();
  });

  it('deletes the pool after a confirmation; its nodes run on', async () => {
    await page().getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page().getByRole('dialog', { name: 'Delete this pool?' });
    await dialog.waitFor();
    await checkScreen(page(), 'pools-05-delete-dialog');
    await dialog.getByRole('button', { name: 'Delete the pool' }).click();
    await page().getByRole('status').getByText('Pool payments is deleted; its nodes run on.').waitFor();
    await page().getByText('No pools yet: create one below.').waitFor();
    expect(await cloud.pools.list()).toEqual([]);
    expect((await cloud.nodes.get(named.id)).state).toBe('running');
  });
});
