import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { startTestPlatform, type TestPlatform } from '@cloud/all-in-one/testing';
import { PlatformClient, type Session } from '@cloud/sdk/browser';
import { Secret, TOTP } from 'otpauth';
import { checkPhoneScreen, checkScreen, clipboard, openBrowser, savedCertificateFolder, storedSession, type Browser } from './browser';

// The web console in a real browser against a whole platform (embedded defaults, random ports,
// its own data directory): the walk from sign-up to an RPC answer and its usage, the
// same for a Fuji validator, and the failures a person meets. Each screen is checked with axe
// and saved as a screenshot (e2e/artifacts/screenshots; the set in docs/console is linked from the READMEs).

const run = promisify(execFile);
const EMAIL = 'ada@example.com';
const PASSWORD = 'correct horse 42';

describe('the web console', () => {
  let platform: TestPlatform;
  let browser: Browser;
  let consoleUrl: string;
  /** Every script the pages asked for. */
  const scripts: string[] = [];

  beforeAll(async () => {
    // The proxy publishes its call counts every second, so a call shows in the usage soon.
    platform = await startTestPlatform({ CONSOLE_PORT: '0', PROXY_USAGE_INTERVAL_MS: '1000' });
    consoleUrl = platform.urls.console!;
    browser = await openBrowser(consoleUrl);
    browser.page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  const page = () => browser.page;
  const alert = () => page().getByRole('alert').filter({ hasText: /\S/ });
  const section = (name: string) => page().getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true });

  it('serves the page under a strict Content-Security-Policy', async () => {
    const response = await fetch(`${consoleUrl}/`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(new URL(platform.urls.accounts!).origin);
    // A client route is the page too (the page routes itself).
    expect((await fetch(`${consoleUrl}/nodes/node-123`)).headers.get('content-type')).toMatch(/text\/html/);
  });

  it('signs up, and the e-mail link verifies the address', async () => {
    await page().goto(`${consoleUrl}/signup`);
    await page().getByLabel('E-mail address').fill(EMAIL);
    await page().getByLabel('Your name').fill('Ada Lovelace');
    await page().getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page().getByLabel('Password again').fill(PASSWORD);
    await page().getByLabel('Country (optional)').fill('United Kingdom');
    await checkScreen(page(), '01-signup');
    await page().getByRole('button', { name: 'Sign up' }).click();
    await page().getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await checkScreen(page(), '02-signup-check-your-email');

    // The verification e-mail (the dev outbox) links to the console's /verify page.
    const { link, userId, token } = await platform.verificationFor(EMAIL);
    expect(link).toBe(`${consoleUrl}/verify?user=${encodeURIComponent(userId)}&token=${encodeURIComponent(token)}`);
    await page().goto(link);
    await page().getByText(`Your e-mail address ${EMAIL} is verified`).waitFor();
    await checkScreen(page(), '03-verified');
  });

  it('says what a wrong password is in the API words, then logs in', async () => {
    await page().getByRole('link', { name: 'Log in' }).click();
    await page().getByLabel('E-mail address or user id').fill(EMAIL);
    await page().getByLabel('Password').fill('not the password');
    await page().getByRole('button', { name: 'Log in' }).click();
    // The accounts API's own message for wrong credentials, in the alert region.
    const api = new PlatformClient({ accountsUrl: platform.urls.accounts!, nodesUrl: platform.urls.nodes!, stakingUrl: platform.urls.staking! });
    const apiMessage = await api.login(EMAIL, 'not the password').then(
      () => 'logged in?',
      (error: Error) => error.message,
    );
    await alert().getByText(apiMessage).waitFor();
    expect(apiMessage.length).toBeGreaterThan(5);
    await checkScreen(page(), '04-login-wrong-password');

    await page().getByLabel('Password').fill(PASSWORD);
    await page().getByRole('button', { name: 'Log in' }).click();
    await page().waitForURL(`${consoleUrl}/nodes`);
    await page().getByRole('heading', { name: 'Nodes', level: 1 }).waitFor();
    // The session (tokens, no password) is this tab's sessionStorage; localStorage stays empty.
    const stored = await page().evaluate<{ session: string | null; local: number }>(
      `({ session: sessionStorage.getItem('cloud.session'), local: localStorage.length })`,
    );
    expect(stored.local).toBe(0);
    expect(stored.session).not.toContain(PASSWORD);
    expect(JSON.parse(stored.session!)).toMatchObject({ email: EMAIL, accountToken: expect.any(String), refreshToken: expect.any(String) });
  });

  it('edits the profile and changes the password', async () => {
    await section('Profile').click();
    await page().getByLabel('Name').fill('Ada King');
    await page().getByLabel('Country').fill('France');
    await page().getByRole('button', { name: 'Save' }).click();
    await page().getByText('Profile saved.').waitFor();
    await page().getByLabel('Current password').fill('wrong old password');
    await page().getByLabel('New password', { exact: true }).fill(`${PASSWORD} 2`);
    await page().getByLabel('New password again').fill(`${PASSWORD} 2`);
    await page().getByRole('button', { name: 'Change the password' }).click();
    // 403 with the API's words, and still logged in.
    await alert().getByText('the old password is wrong').waitFor();
    await checkScreen(page(), '05-profile');
    await page().getByLabel('Current password').fill(PASSWORD);
    await page().getByRole('button', { name: 'Change the password' }).click();
    await page().getByText('Password changed.').waitFor();
  });

  it('creates a client key, shows its secret once, and deletes it after a confirmation', async () => {
    await section('Client keys').click();
    await page().getByRole('button', { name: 'Create a client key' }).click();
    const secret = (await page().getByTestId('new-client-secret').textContent())!.trim();
    const clientId = (await page().getByTestId('new-client-id').textContent())!.trim();
    expect(secret).toHaveLength(80);
    expect(clientId).toHaveLength(40);
    await page().getByRole('button', { name: 'Copy the client secret' }).click();
    expect(await clipboard(page())).toBe(secret);
    await page().getByRole('cell', { name: clientId, exact: true }).waitFor();
    await checkScreen(page(), '06-client-key-created');
    // The secret is nowhere in the browser's storage.
    expect(await page().evaluate<string>('JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage })')).not.toContain(secret);

    await page().getByRole('button', { name: 'I have copied it: hide the secret' }).click();
    expect(await page().getByText(secret).count()).toBe(0);
    await page()
      .getByRole('button', { name: `Delete key ${clientId}` })
      .click();
    const dialog = page().getByRole('dialog', { name: 'Delete this client key?' });
    await dialog.waitFor();
    await checkScreen(page(), '07-client-key-delete-dialog');
    // Escape cancels; the key is still there.
    await page().keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page()
      .getByRole('button', { name: `Delete key ${clientId}` })
      .click();
    await dialog.getByRole('button', { name: 'Delete the key' }).click();
    await page().getByText(`Key ${clientId} deleted`).waitFor();
    await page().getByRole('cell', { name: clientId, exact: true }).waitFor({ state: 'detached' });
  });

  let nodeId: string;

  it('creates an eth node and watches the list reach running without a reload', async () => {
    await section('Nodes').click();
    await page().getByText('No nodes yet').waitFor();
    await checkScreen(page(), '09-nodes-empty');
    await page().getByLabel('Chain').selectOption('eth');
    // txindex is a Bitcoin-family option: not offered for eth.
    expect(
      await page()
        .getByLabel(/Transaction index/)
        .count(),
    ).toBe(0);
    await page().getByLabel('Chain').selectOption('ltc');
    await page()
      .getByLabel(/Transaction index/)
      .waitFor();
    await page().getByLabel('Chain').selectOption('eth');
    // A mark in the page's memory: a reload would lose it.
    await page().evaluate(`window.e2eMark = 'no reload'`);
    await page().getByRole('button', { name: 'Create the node' }).click();
    const row = page().locator('tr[data-node-id]');
    await row.waitFor();
    nodeId = (await row.getAttribute('data-node-id'))!;
    expect(nodeId).toMatch(/^node-/);
    await row.locator('[data-state="running"]').waitFor({ timeout: 150_000 });
    expect(await page().evaluate<string | undefined>('window.e2eMark')).toBe('no reload');
    await checkScreen(page(), '10-nodes-running');
    await checkPhoneScreen(page(), '11-nodes-phone');
  });

  /** The SDK with the session the page keeps, to compare the page with what the APIs say. */
  const pageApi = async () => {
    const session = JSON.parse((await storedSession(page()))!) as Session;
    return new PlatformClient({ accountsUrl: platform.urls.accounts!, nodesUrl: platform.urls.nodes!, stakingUrl: platform.urls.staking!, session });
  };
  /** The text of the ready line `name` in the group of lines `group` (a data-testid). */
  const readyLine = async (group: string, name: string) => (await page().getByTestId(group).locator(`[data-ready-line="${name}"] pre`).textContent())!.trim();
  /**
   * Runs a ready-to-paste curl line as a person would, and its answer: in the folder where they
   * saved the proxy's certificate with the line the node page gives (the first node test does).
   */
  let pasteDir: string | undefined;
  afterAll(() => pasteDir && rmSync(pasteDir, { recursive: true, force: true }));
  const runCurl = async (line: string) => (await run('bash', ['-c', `${line} -sS --max-time 60`], { cwd: pasteDir })).stdout;

  it("shows the node's endpoints with copy buttons, its first credential once, and its curl line answers through the proxy", async () => {
    await page().getByRole('table').getByRole('link', { name: nodeId }).click();
    await page().getByTestId('node-state').getByText('Running').waitFor();

    // The endpoints are the node record's own, each with a copy button a keyboard reaches.
    const record = await (await pageApi()).nodes.get(nodeId);
    expect(record.endpoints.jsonRpc).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/);
    await page().getByTestId('endpoints').getByText(record.endpoints.jsonRpc, { exact: true }).waitFor();
    await page().getByRole('button', { name: 'Copy the JSON-RPC address', exact: true }).focus();
    await page().keyboard.press('Enter');
    await page().getByTestId('endpoints').getByText('Copied').waitFor();
    expect(await clipboard(page())).toBe(record.endpoints.jsonRpc);
    // Plain HTTP for loopback clients, labelled as such.
    expect(record.endpoints.plain?.jsonRpc).toMatch(/^http:\/\//);
    await page().getByRole('heading', { name: 'Plain HTTP, from this machine only (litecoin-cli, bitcoin-cli)' }).waitFor();
    await page().getByTestId('plain-endpoints').getByText(record.endpoints.plain!.jsonRpc, { exact: true }).waitFor();
    await page().getByRole('button', { name: 'Copy the JSON-RPC address, plain HTTP, from this machine only (litecoin-cli, bitcoin-cli)' }).click();
    expect(await clipboard(page())).toBe(record.endpoints.plain!.jsonRpc);

    // The node's first credential, from the create answer: shown only now, with its ready lines.
    const secret = page().getByTestId('new-secret');
    await secret.getByText('shown only now').first().waitFor();
    const user = (await page().getByTestId('new-credential-user').textContent())!.trim();
    const password = (await page().getByTestId('new-credential-secret').textContent())!.trim();
    expect(await page().getByTestId('node-user-name').textContent()).toBe(user);
    const curl = await readyLine('new-secret-lines', 'curl');
    expect(curl).toContain(password);
    expect(curl).toMatch(
      /^curl -sS --cacert \S+ -u \S+ -H 'content-type: application\/json' -d '\{"jsonrpc":"2\.0","id":1,"method":"eth_blockNumber","params":\[\]\}' https:\/\/127\.0\.0\.1:\d+\/$/,
    );
    expect(curl.endsWith(record.endpoints.jsonRpc)).toBe(true);
    expect(await readyLine('new-secret-lines', 'ethers')).toContain(`request.setCredentials('${user}', '${password}')`);
    await page().getByRole('button', { name: 'Copy the curl line, ready lines with default' }).click();
    expect(await clipboard(page())).toBe(curl);
    // The lines beside the endpoints have the node user and a placeholder for the password.
    expect(await readyLine('ready-lines', 'curl')).toContain(`-u '${user}:<password>'`);

    // As pasted: the line that saves the proxy's certificate (the page names no file of the
    // operator's machine), then the printed address, no hosts line, no --connect-to.
    pasteDir = await savedCertificateFolder(page(), platform.proxy.certificate);
    expect(curl).toContain('--cacert cloud-proxy-ca.pem ');
    expect(JSON.parse(await runCurl(curl))).toEqual({ jsonrpc: '2.0', id: 1, result: expect.stringMatching(/^0x[0-9a-f]+$/) });

    await page().getByRole('heading', { name: 'Log' }).waitFor();
    await checkScreen(page(), '12-node');
  });

  it('shows the call in the usage chart and table', async () => {
    // The proxy counts methods by their lower-cased name (how its policy compares them).
    const total = page().locator('tr[data-method="eth_blockNumber" i] td[data-total]');
    await total.waitFor({ timeout: 90_000 });
    expect(Number(await total.textContent())).toBeGreaterThan(0);
    await page()
      .getByRole('img', { name: /eth_blockNumber [1-9]/i })
      .waitFor();
    await page().getByRole('heading', { name: 'Usage' }).scrollIntoViewIfNeeded();
    await checkScreen(page(), '13-node-usage');
    await checkPhoneScreen(page(), '14-node-phone');
  });

  it('edits the access rules', async () => {
    await page().getByLabel("Methods it refuses, on top of the platform's").fill('eth_getLogs');
    await page().getByLabel('Calls per second at most').fill('50');
    await page().getByRole('button', { name: 'Save the access rules' }).click();
    await page().getByText('Access rules saved').waitFor();
    expect(await page().getByLabel('Calls per second at most').inputValue()).toBe('50');
  });

  it('creates a URL token credential, shows it once with its lines, rotates it and deletes it; the last one stays', async () => {
    const credentials = page().getByTestId('credentials');
    await page().getByRole('button', { name: 'I have copied it: hide the password' }).click();
    expect(await page().getByTestId('new-secret').count()).toBe(0);
    await page().getByRole('radio', { name: 'URL token' }).check();
    await page().getByLabel('Name', { exact: true }).fill('ci');
    await page().getByRole('button', { name: 'Create the credential' }).click();
    await page().getByRole('heading', { name: 'URL token ci: shown only now' }).waitFor();
    const token = (await page().getByTestId('new-credential-secret').textContent())!.trim();
    expect(token).toMatch(/^nt_/);
    const url = (await page().getByTestId('new-credential-url').textContent())!.trim();
    expect(url).toMatch(new RegExp(`^https://127\\.0\\.0\\.1:\\d+/${token}$`));
    await page().getByRole('button', { name: 'Copy the token' }).click();
    expect(await clipboard(page())).toBe(token);
    // Listed without its secret; a Basic one with its user name.
    await credentials.locator('tr[data-credential="ci"]').getByText('URL token').waitFor();
    expect(await credentials.textContent()).not.toContain(token);
    expect(await page().evaluate<string>('JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage })')).not.toContain(token);

    // Its ready lines: curl with nothing but the token URL, ethers and cast for an eth node.
    const curl = await readyLine('new-secret-lines', 'curl');
    expect(curl).not.toContain(' -u ');
    expect(curl.endsWith(url)).toBe(true);
    expect(await readyLine('new-secret-lines', 'ethers')).toBe(`const provider = new JsonRpcProvider('${url}');`);
    expect(await readyLine('new-secret-lines', 'cast')).toMatch(new RegExp(`^cast block-number --rpc-url \\S+/${token}$`));
    expect(JSON.parse(await runCurl(curl))).toEqual({ jsonrpc: '2.0', id: 1, result: expect.stringMatching(/^0x[0-9a-f]+$/) });

    // A dev node: the lines that fund an address and mine, with this token's address for cast.
    expect((await (await pageApi()).nodes.get(nodeId)).dev).toBe(true);
    const dev = page().getByTestId('dev-chain');
    await dev.getByRole('heading', { name: 'Fund an address: dev chain only' }).waitFor();
    const wallet = '0x00000000000000000000000000000000000000a1';
    await dev.getByLabel('Address to fund').fill(wallet);
    const castUrl = /--rpc-url (\S+)$/.exec(await readyLine('new-secret-lines', 'cast'))![1];
    expect(await readyLine('dev-lines', 'cast: give the address 100 ether')).toBe(
      `cast rpc anvil_setBalance ${wallet} 0x56BC75E2D63100000 --rpc-url ${castUrl}`,
    );
    expect(await readyLine('dev-lines', 'cast: mine a block')).toBe(`cast rpc evm_mine --rpc-url ${castUrl}`);
    await page().getByRole('button', { name: 'Copy the cast: give the address 100 ether line, dev chain only: fund and mine' }).click();
    expect(await clipboard(page())).toContain(`anvil_setBalance ${wallet}`);
    // The same calls at the same address work: the proxy lets a dev node's owner fund and mine.
    const call = async (method: string, params: unknown[]) =>
      JSON.parse(await runCurl(`curl -H 'content-type: application/json' -d '${JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })}' ${castUrl}`)) as {
        result?: unknown;
      };
    expect(await call('anvil_setBalance', [wallet, '0x56BC75E2D63100000'])).toHaveProperty('result');
    expect(await call('evm_mine', [])).toHaveProperty('result');
    expect(BigInt((await call('eth_getBalance', [wallet, 'latest'])).result as string)).toBe(100n * 10n ** 18n);
    await checkScreen(page(), '22-node-token-credential');

    // Rotate, after a confirmation: a new token, shown once; the old one is refused.
    await page().getByRole('button', { name: 'Rotate credential ci' }).click();
    const rotateDialog = page().getByRole('dialog', { name: 'Rotate credential ci?' });
    await rotateDialog.waitFor();
    await checkScreen(page(), '23-node-credential-rotate-dialog');
    await rotateDialog.getByRole('button', { name: 'Rotate the credential' }).click();
    await page().getByText('Credential ci rotated').waitFor();
    const rotated = (await page().getByTestId('new-credential-secret').textContent())!.trim();
    expect(rotated).toMatch(/^nt_/);
    expect(rotated).not.toBe(token);
    const rotatedCurl = await readyLine('new-secret-lines', 'curl');
    expect(rotatedCurl).toContain(rotated);
    expect(JSON.parse(await runCurl(rotatedCurl))).toMatchObject({ result: expect.stringMatching(/^0x/) });
    // Revoked within a second.
    await page().waitForTimeout(1500);
    expect(await runCurl(curl)).not.toContain('"result"');

    // Delete, after a confirmation.
    await page().getByRole('button', { name: 'Delete credential ci' }).click();
    await page().getByRole('dialog', { name: 'Delete credential ci?' }).getByRole('button', { name: 'Delete the credential' }).click();
    await page().getByText('Credential ci deleted').waitFor();
    await credentials.locator('tr[data-credential="ci"]').waitFor({ state: 'detached' });
    expect(await page().getByTestId('new-secret').count()).toBe(0);

    // The last credential cannot go: the API's words in the alert, and it is still listed.
    const api = await pageApi();
    const [last] = await api.nodes.credentials(nodeId);
    const refusal = await api.nodes.removeCredential(nodeId, last!.id).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(refusal).not.toBeNull();
    await page()
      .getByRole('button', { name: `Delete credential ${last!.name}` })
      .click();
    await page()
      .getByRole('dialog', { name: `Delete credential ${last!.name}?` })
      .getByRole('button', { name: 'Delete the credential' })
      .click();
    await alert().getByText(refusal!).waitFor();
    await credentials.locator(`tr[data-credential="${last!.name}"]`).waitFor();
    await checkScreen(page(), '24-node-last-credential-refused');
  });

  it('deletes the node after a confirmation, and it leaves the list', async () => {
    // Leaving the page forgets every secret: back on it, the curl line has a placeholder.
    await section('Nodes').click();
    await page().getByRole('table').getByRole('link', { name: nodeId }).click();
    await page().getByTestId('node-state').getByText('Running').waitFor();
    expect(await page().getByTestId('new-secret').count()).toBe(0);
    await page().getByTestId('credentials').waitFor();
    expect(await readyLine('ready-lines', 'curl')).toContain(":<password>'");

    await page().getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page().getByRole('dialog', { name: 'Delete this node?' });
    await dialog.waitFor();
    await checkScreen(page(), '15-node-delete-dialog');
    await dialog.getByRole('button', { name: 'Delete the node' }).click();
    await page().waitForURL(`${consoleUrl}/nodes`);
    await page().getByText(`Node ${nodeId} is being deleted.`).waitFor();
    await page().locator(`tr[data-node-id="${nodeId}"]`).waitFor({ state: 'detached', timeout: 120_000 });
  });

  it('lists the events a page at a time, filtered by service', async () => {
    await section('Events').click();
    await page().getByRole('table').waitFor();
    expect(await page().locator('tbody tr').count()).toBe(20);
    await page().getByRole('button', { name: 'Older' }).click();
    await page().getByText('Page 2', { exact: true }).waitFor();
    await page().getByLabel('Service').selectOption('cloud-accounts');
    await page().getByText('Page 1', { exact: true }).waitFor();
    await page().locator('tbody tr').first().waitFor();
    const services = await page().locator('tbody tr td:nth-child(2)').allTextContents();
    expect(new Set(services)).toEqual(new Set(['cloud-accounts']));
    await checkScreen(page(), '08-events');
  });

  it('creates a Fuji validator with its NodeID at once, shows its registration, and removes it as the API says', async () => {
    await section('Validators').click();
    await page().getByLabel('Network').selectOption('fuji');
    await page().getByText('Minimum stake').waitFor();
    await checkScreen(page(), '16-validators');
    await page().getByRole('button', { name: 'Create a validator on fuji' }).click();
    const chainNodeId = (await page().getByTestId('new-chain-node-id').textContent())!.trim();
    expect(chainNodeId).toMatch(/^NodeID-/);
    await page().getByRole('button', { name: 'Copy the NodeID' }).click();
    expect(await clipboard(page())).toBe(chainNodeId);

    // The API's record says the same NodeID (read with the session the page keeps).
    const api = await pageApi();
    const [validator] = await api.staking.list('fuji');
    expect(validator!.chainNodeId).toBe(chainNodeId);

    await page().getByRole('table').getByRole('link', { name: validator!.nodeId }).click();
    await page().getByTestId('chain-node-id').getByText(chainNodeId).waitFor();
    // Its node runs (the dev chain's avalanche mode here), and the page follows without a reload.
    await page().getByTestId('validator-state').locator('[data-state="running"]').waitFor({ timeout: 150_000 });
    // Once its node answers, the P-chain can be read through it: the status the API says.
    const shown = page().locator('[data-testid="registration"] [data-registration]:not([data-registration="unknown"]):not([data-registration="starting"])');
    await shown.waitFor();
    const { registration } = await api.staking.get('fuji', validator!.nodeId);
    expect(await shown.getAttribute('data-registration')).toBe(registration.status);
    await checkScreen(page(), '17-validator');
    await checkPhoneScreen(page(), '18-validator-phone');

    await page().getByRole('button', { name: 'Remove' }).click();
    await page().getByRole('dialog', { name: 'Remove this validator?' }).getByRole('button', { name: 'Remove the validator' }).click();
    // Allowed (back to the list, being deleted) or refused (the API's words in the alert).
    const outcome = await Promise.race([
      page()
        .waitForURL(`${consoleUrl}/validators`)
        .then(() => 'removed'),
      alert()
        .waitFor()
        .then(() => 'refused'),
    ]);
    if (outcome === 'removed') {
      await page().getByText(`Validator ${validator!.nodeId} is being deleted.`).waitFor();
    } else {
      const refused = await api.staking.remove('fuji', validator!.nodeId).then(
        () => null,
        (error: Error) => error.message,
      );
      expect(refused).not.toBeNull();
      await alert().getByText(refused!).waitFor();
    }
  });

  it('goes back to the login page when the session has expired', async () => {
    await page().goto(`${consoleUrl}/keys`);
    await page().getByRole('heading', { name: 'Client keys' }).waitFor();
    // Tokens the APIs no longer take: as after an expiry or a revocation elsewhere.
    const session = JSON.parse((await storedSession(page()))!) as Record<string, string>;
    for (const key of ['accountToken', 'refreshToken', 'clientAccessToken']) session[key] = `${session[key]}garbled`;
    await page().evaluate(`sessionStorage.setItem('cloud.session', ${JSON.stringify(JSON.stringify(session))})`);
    await page().goto(`${consoleUrl}/nodes`);
    await page().waitForURL(`${consoleUrl}/login`);
    await page().getByText('Your session has expired or was ended').waitFor();
    expect(await storedSession(page())).toBeNull();
    await checkScreen(page(), '19-login-session-expired');
  });

  it('has the other public screens, and logs out', async () => {
    await page().goto(`${consoleUrl}/forgot-password`);
    await page().getByLabel('E-mail address').fill(EMAIL);
    await page().getByRole('button', { name: 'Send the link' }).click();
    await page().getByRole('status').filter({ hasText: /\S/ }).waitFor();
    const reset = await platform.passwordResetFor(EMAIL);
    expect(reset.link.startsWith(`${consoleUrl}/reset-password?`)).toBe(true);
    await page().goto(reset.link);
    await page().getByLabel('New password', { exact: true }).fill(`${PASSWORD} 3`);
    await page().getByLabel('New password again').fill(`${PASSWORD} 3`);
    await checkScreen(page(), '20-reset-password');
    await page().getByRole('button', { name: 'Set the password' }).click();
    await page().getByText('Your password is changed').waitFor();

    await page().getByRole('link', { name: 'Log in' }).click();
    await page().getByLabel('E-mail address or user id').fill(EMAIL);
    await page().getByLabel('Password').fill(`${PASSWORD} 3`);
    await page().getByRole('button', { name: 'Log in' }).click();
    await page().waitForURL(`${consoleUrl}/nodes`);
    await page().getByRole('button', { name: 'Log out' }).click();
    await page().waitForURL(`${consoleUrl}/login`);
    await page().getByText('You are logged out.').waitFor();
    expect(await storedSession(page())).toBeNull();
    await page().goto(`${consoleUrl}/profile`);
    await page().waitForURL(/\/login$/);
  });

  it('asks for the two-factor code when the API answers TwoFactorRequired', async () => {
    // Two-factor login turned on through the SDK, as the CLI's `cloud two-factor enable` does.
    const password = `${PASSWORD} 3`;
    const api = new PlatformClient({ accountsUrl: platform.urls.accounts!, nodesUrl: platform.urls.nodes!, stakingUrl: platform.urls.staking! });
    await api.login(EMAIL, password);
    const { secret } = await api.accounts.enrolTwoFactor(password);
    const codeAt = (timestamp: number) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp });
    await api.accounts.confirmTwoFactor(codeAt(Date.now()));

    await page().goto(`${consoleUrl}/login`);
    await page().getByLabel('E-mail address or user id').fill(EMAIL);
    await page().getByLabel('Password').fill(password);
    await page().getByRole('button', { name: 'Log in' }).click();
    await alert().getByText('two-factor login on').waitFor();
    await page().getByLabel('Two-factor code').waitFor();
    await checkScreen(page(), '21-login-two-factor');
    // The next time step's code: the one the confirmation used is spent.
    await page()
      .getByLabel('Two-factor code')
      .fill(codeAt(Date.now() + 30_000));
    await page().getByRole('button', { name: 'Log in' }).click();
    // Logged in, and back where the person was headed before the login page (/profile here).
    await page().getByRole('button', { name: 'Log out' }).waitFor();
    await page().waitForURL(`${consoleUrl}/profile`);
  });

  it('loaded no script from another origin', () => {
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((url) => new URL(url).origin !== new URL(consoleUrl).origin)).toEqual([]);
  });
});
