import { startTestPlatform, type TestPlatform } from '@cloud/all-in-one/testing';
import { PlatformClient } from '@cloud/sdk/browser';
import { checkPhoneScreen, checkScreen, openBrowser, type Browser } from './browser';

// Issue 28, items 4, 6 and 7 as a person meets them in the console: the Events page shows what
// they did, not the console's own polling (until they ask for it); a broken verification link
// is explained in words, with the API's code beside them; a form field takes no more than the API.

const EMAIL = 'grace@example.com';
const PASSWORD = 'correct horse 43';

describe('the console: events of your own, errors in words, limits of the API', () => {
  let platform: TestPlatform;
  let browser: Browser;
  let consoleUrl: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ CONSOLE_PORT: '0' });
    consoleUrl = platform.urls.console!;
    browser = await openBrowser(consoleUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  const page = () => browser.page;
  const alert = () => page().getByRole('alert').filter({ hasText: /\S/ });
  const section = (name: string) => page().getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true });
  // The test's own reads are marked as the console marks its own, so they stay out of the list too.
  const api = () =>
    new PlatformClient({
      accountsUrl: platform.urls.accounts!,
      nodesUrl: platform.urls.nodes!,
      stakingUrl: platform.urls.staking!,
      background: (request) => request.method === 'GET',
    });

  it('explains a broken verification link in words, with the code beside them, and the whole link still verifies', async () => {
    await api().accounts.signUp({ email: EMAIL, password: PASSWORD, displayName: 'Grace Hopper' });
    const { link, userId } = await platform.verificationFor(EMAIL);
    // The link cut inside the user id, as a mail program wrapping it would leave it.
    const broken = link.replace(userId, userId.slice(0, 20));
    await page().goto(broken);
    await alert().getByText('This verification link is broken').waitFor();
    const said = await alert().innerText();
    expect(said).toContain('Open the whole link from the e-mail');
    expect(said).toContain('InvalidInput');
    expect(said).not.toContain('params.');
    expect(said).not.toContain('user-<uuid>');
    await page().getByRole('heading', { name: 'Get a new verification e-mail' }).waitFor();
    await checkScreen(page(), 'events-01-verify-broken-link');

    await page().goto(link);
    await page().getByText(`Your e-mail address ${EMAIL} is verified`).waitFor();
  });

  it('says a wrong password as a sentence saying what to do, with the code Unauthorized', async () => {
    await page().goto(`${consoleUrl}/login`);
    await page().getByLabel('E-mail address or user id').fill(EMAIL);
    await page().getByLabel('Password').fill('not the password 1');
    await page().getByRole('button', { name: 'Log in' }).click();
    await alert().getByText('Wrong user id, e-mail or password. Check both and try again', { exact: false }).waitFor();
    expect(await alert().innerText()).toContain('Unauthorized');

    await page().getByLabel('Password').fill(PASSWORD);
    await page().getByRole('button', { name: 'Log in' }).click();
    await page().waitForURL(`${consoleUrl}/nodes`);
  });

  it("holds the display name to the API's 100 characters: the rest cannot be typed", async () => {
    await section('Profile').click();
    const name = page().getByLabel('Name', { exact: true });
    await name.waitFor();
    await name.fill('');
    await name.pressSequentially('x'.repeat(130));
    expect((await name.inputValue()).length).toBe(100);
    expect(await name.getAttribute('maxlength')).toBe('100');
    await page().getByRole('button', { name: 'Save' }).click();
    await page().getByText('Profile saved.').waitFor();
    const profile = await api()
      .login(EMAIL, PASSWORD)
      .then((me) => me.displayName);
    expect(profile).toBe('x'.repeat(100));
  });

  it("shows your own calls on the Events page, and the console's polling only when asked, marked", async () => {
    await section('Client keys').click();
    await page().getByRole('button', { name: 'Create a client key' }).click();
    await page().getByTestId('new-client-id').waitFor();
    // The nodes list polls every 3 s: wait until the platform has recorded such reads.
    await section('Nodes').click();
    const client = api();
    await client.login(EMAIL, PASSWORD);
    for (let waited = 0; ; waited += 500) {
      const polls = await client.accounts.events({ limit: 50, background: 'true' });
      if (polls.filter((event) => event.input.route === '/users/me/nodes' && event.input.method === 'GET').length >= 2) break;
      if (waited > 60_000) throw new Error('no polling of the nodes list was recorded in 60 s');
      await page().waitForTimeout(500);
    }

    await section('Events').click();
    const rows = page().locator('tbody tr');
    await rows.filter({ hasText: 'POST /users/me/client-keys' }).first().waitFor();
    await rows.filter({ hasText: 'PATCH /users/me' }).first().waitFor();
    await rows.filter({ hasText: 'PUT /users/:userId/token/:token' }).first().waitFor();
    // None of the console's reads: no GET at all (this user made none of their own), no mark.
    const calls = await page().locator('tbody tr td:nth-child(3)').allInnerTexts();
    expect(calls.filter((call) => call.startsWith('GET'))).toEqual([]);
    expect(await page().getByText('console read').count()).toBe(0);
    await checkScreen(page(), 'events-02-own-calls');

    await page().getByLabel("Show the console's own reads").check();
    const polled = rows.filter({ hasText: 'GET /users/me/nodes' }).first();
    await polled.waitFor();
    expect(await polled.innerText()).toContain('console read');
    // Your own calls are still there, unmarked.
    expect(await rows.filter({ hasText: 'PATCH /users/me' }).first().innerText()).not.toContain('console read');
    await checkScreen(page(), 'events-03-with-console-reads');
    await checkPhoneScreen(page(), 'events-04-with-console-reads-phone');

    await page().getByLabel("Show the console's own reads").uncheck();
    await rows.filter({ hasText: 'POST /users/me/client-keys' }).first().waitFor();
    await rows.filter({ hasText: 'GET /users/me/nodes' }).first().waitFor({ state: 'detached' });
    await checkPhoneScreen(page(), 'events-05-own-calls-phone');
  });
});
