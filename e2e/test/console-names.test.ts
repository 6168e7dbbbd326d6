import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { startTestPlatform, type TestPlatform } from '@cloud/all-in-one/testing';
import { PlatformClient } from '@cloud/sdk/browser';
import type { Page } from 'playwright-core';
import { checkPhoneScreen, checkScreen, openBrowser, savedCertificateFolder, type Browser } from './browser';

// Node names in the web console (issue 28, item 8): a name given at creation, shown in the list,
// changed on the node's page; and on a phone, ids and the per-method table keep whole words
// (before, both wrapped a character per line). Screenshots as console.test.ts takes them, names-*.

const run = promisify(execFile);
const EMAIL = 'names@example.com';
const PASSWORD = 'correct horse 42';
const PHONE = { width: 390, height: 844 };

/**
 * How many lines the text of each element the selector finds takes (line boxes of its text), by
 * its text: 1 for a word kept whole, and 40 for a node id that wraps a character per line.
 */
function linesOf(page: Page, selector: string): Promise<Record<string, number>> {
  return page.evaluate<Record<string, number>>(`(() => {
    const lines = {};
    for (const element of document.querySelectorAll(${JSON.stringify(selector)})) {
      const range = document.createRange();
      range.selectNodeContents(element);
      // One rectangle per line box; those of nested inline boxes on the same line share its top.
      const tops = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
      lines[element.textContent.trim()] = tops.size;
    }
    return lines;
  })()`);
}

describe('node names in the web console', () => {
  let platform: TestPlatform;
  let browser: Browser;
  let consoleUrl: string;
  let nodeId: string;

  beforeAll(async () => {
    // The proxy publishes its call counts every second, so a call shows in the usage soon.
    platform = await startTestPlatform({ CONSOLE_PORT: '0', PROXY_USAGE_INTERVAL_MS: '1000' });
    consoleUrl = platform.urls.console!;
    // A verified user, made through the API: this file is about nodes, console.test.ts walks the sign-up.
    const api = new PlatformClient({ accountsUrl: platform.urls.accounts!, nodesUrl: platform.urls.nodes!, stakingUrl: platform.urls.staking! });
    await api.accounts.signUp({ email: EMAIL, password: PASSWORD, displayName: 'Grace Hopper' });
    const { userId, token } = await platform.verificationFor(EMAIL);
    await api.accounts.verify(userId, token);
    browser = await openBrowser(consoleUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  const page = () => browser.page;
  /** The node's link in the list, by the name it shows. */
  const listLink = (name: string) => page().locator(`tr[data-node-id="${nodeId}"]`).getByRole('link', { name, exact: true });

  it('names a node at creation, and shows the name in the list', async () => {
    await page().goto(`${consoleUrl}/login`);
    await page().getByLabel('E-mail address or user id').fill(EMAIL);
    await page().getByLabel('Password').fill(PASSWORD);
    await page().getByRole('button', { name: 'Log in' }).click();
    await page().getByRole('heading', { name: 'Nodes', level: 1 }).waitFor();

    await page().getByLabel('Chain').selectOption('eth');
    // The field takes no more than the API does (the SDK's LIMITS, from the API's document).
    expect(await page().getByLabel('Name (optional)').getAttribute('maxlength')).toBe('64');
    await page().getByLabel('Name (optional)').fill('  payments eth  ');
    await page().getByRole('button', { name: 'Create the node' }).click();
    const row = page().locator('tr[data-node-id]');
    await row.waitFor();
    nodeId = (await row.getAttribute('data-node-id'))!;
    // The name is the row's link (trimmed, as the API keeps it); the id below it, whole in its title.
    await row.getByRole('link', { name: 'payments eth', exact: true }).waitFor();
    expect(await row.locator('.node-id').getAttribute('title')).toBe(nodeId);
    await page().getByRole('status').getByRole('link', { name: 'payments eth' }).waitFor();
    // The field is empty again for the next node.
    expect(await page().getByLabel('Name (optional)').inputValue()).toBe('');
    await row.locator('[data-state="running"]').waitFor({ timeout: 150_000 });
    await checkScreen(page(), 'names-01-nodes');
  });

  it('keeps the id on one line in the list on a phone', async () => {
    await page().setViewportSize(PHONE);
    try {
      const lines = await linesOf(page(), 'tr[data-node-id] .node-id');
      expect(lines).toEqual({ [nodeId]: 1 });
      // Cut with an ellipsis rather than wrapped: narrower than its text.
      const cut = await page().evaluate<{ overflow: string; textOverflow: string; whiteSpace: string }>(
        `(() => { const style = getComputedStyle(document.querySelector('tr[data-node-id] .node-id')); return { overflow: style.overflowX, textOverflow: style.textOverflow, whiteSpace: style.whiteSpace }; })()`,
      );
      expect(cut).toEqual({ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });
    } finally {
      await page().setViewportSize({ width: 1280, height: 900 });
    }
    await checkPhoneScreen(page(), 'names-02-nodes-phone');
  });

  it('renames the node on its page, and the list shows the new name', async () => {
    await listLink('payments eth').click();
    await page().getByRole('heading', { name: 'payments eth', level: 1 }).waitFor();
    expect(await page().getByTestId('node-id').textContent()).toBe(nodeId);
    expect(await page().title()).toBe('Node payments eth · Cloud Nodes');

    // A call with a long method name, with the node's first credential (shown once, on this first
    // visit), for the method table below.
    const curl = (await page().getByTestId('new-secret-lines').locator('[data-ready-line="curl"] pre').textContent())!.trim();
    const call = curl.replace('"method":"eth_blockNumber","params":[]', '"method":"eth_getBlockByNumber","params":["latest",false]');
    expect(call).not.toBe(curl);
    const folder = await savedCertificateFolder(page(), platform.proxy.certificate);
    try {
      expect(JSON.parse((await run('bash', ['-c', `${call} -sS --max-time 60`], { cwd: folder })).stdout)).toMatchObject({
        result: { number: expect.stringMatching(/^0x/) },
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }

    await page().getByRole('button', { name: 'Rename' }).click();
    const field = page().getByLabel('Node name');
    expect(await field.inputValue()).toBe('payments eth');
    // A name the API refuses: its words in the alert, the field kept for a correction.
    await field.fill('two\u0007bells');
    await page().getByRole('button', { name: 'Save the name' }).click();
    await page()
      .getByRole('alert')
      .getByText(/must be printable/)
      .waitFor();
    await field.fill('ledger sync');
    await page().getByRole('button', { name: 'Save the name' }).click();
    await page().getByText('Name saved.').waitFor();
    await page().getByRole('heading', { name: 'ledger sync', level: 1 }).waitFor();
    expect(await page().getByTestId('node-name').textContent()).toBe('ledger sync');
    await checkScreen(page(), 'names-03-node-renamed');

    await page().getByRole('link', { name: 'Nodes', exact: true }).first().click();
    await listLink('ledger sync').waitFor();
  });

  it("keeps the id and the method table's words whole on the node's page on a phone", async () => {
    await listLink('ledger sync').click();
    await page().locator('tr[data-method="eth_getBlockByNumber" i]').waitFor({ timeout: 90_000 });

    await page().setViewportSize(PHONE);
    try {
      // The method's name on one line, and no header broken inside a word (a line per word at most).
      const methods = await linesOf(page(), 'table.usage-table tr[data-method] th');
      expect(Object.entries(methods)).toEqual([[expect.stringMatching(/^eth_getblockbynumber$/i), 1]]);
      const headers = await linesOf(page(), 'table.usage-table thead th');
      expect(Object.keys(headers).length).toBeGreaterThan(2);
      for (const [header, lines] of Object.entries(headers)) expect([header, lines <= header.split(/\s+/).length]).toEqual([header, true]);
      // The whole id on the page breaks only between its parts (after a hyphen), at most once per part.
      const idLines = await linesOf(page(), '[data-testid="node-id"]');
      expect(idLines[nodeId]).toBeLessThanOrEqual(nodeId.split('-').length);
      expect(await page().evaluate<string>(`getComputedStyle(document.querySelector('[data-testid="node-id"]')).overflowWrap`)).toBe('normal');
    } finally {
      await page().setViewportSize({ width: 1280, height: 900 });
    }
    await page().getByRole('heading', { name: 'Usage' }).scrollIntoViewIfNeeded();
    await checkPhoneScreen(page(), 'names-04-node-phone');
  });
});
