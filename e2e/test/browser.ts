import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import { chromium, errors, type BrowserContext, type Page } from 'playwright-core';
import type { TestPlatform } from '@cloud/all-in-one/testing';
import { CloudClient, type Session } from '@cloud/sdk';

// Debian's chromium driven by playwright-core: no browser download, the flags this machine's
// closed network needs (no background calls to Google's hosts), a fresh profile per run.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where each run writes its screenshots (a test artefact, not committed; docs/console keeps a set for the READMEs). */
export const SCREENSHOTS = process.env.E2E_SCREENSHOTS_DIR ?? path.join(__dirname, '..', 'artifacts', 'screenshots');

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** A persistent context on a new, empty profile directory, removed again by close(). */
export async function openBrowser(origin: string): Promise<Browser> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'e2e-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 900 },
    // Copy buttons write to the clipboard; the tests read what they wrote.
    permissions: ['clipboard-read', 'clipboard-write'],
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(60_000);
  return {
    context,
    page,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The axe-core violations of impact serious or critical on the page as it is now. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join('; ')}`);
}

/**
 * Checks the screen with axe (no serious or critical violation; the list is in the failure) and
 * saves its screenshot as <SCREENSHOTS>/<nn>-<name>.png.
 */
export async function checkScreen(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await screenshot(page, path.join(SCREENSHOTS, `${name}.png`));
  expect(await seriousViolations(page)).toEqual([]);
}

/**
 * A full-page screenshot. Once, in a CI run with two CPU-burning processes beside it, headless
 * Chromium stopped making frames for the page: the screenshot waited 60 s for one, and so did the
 * next test's click (Playwright waits for two animation frames before clicking), until that test
 * navigated and frames came again. Not a slow machine but a stall, so a screenshot without a frame
 * in 30 s is taken again after reloading the page (the session is in sessionStorage, kept across a
 * reload), and says so on stderr.
 */
async function screenshot(page: Page, file: string): Promise<void> {
  try {
    await page.screenshot({ path: file, fullPage: true, timeout: 30_000 });
  } catch (error) {
    if (!(error instanceof errors.TimeoutError)) throw error;
    process.stderr.write(`e2e: no frame for the screenshot of ${page.url()} in 30 s; reloading the page and taking it again\n`);
    await page.reload();
    await page.screenshot({ path: file, fullPage: true });
  }
}

/** The same at a phone's size (390 x 844), back to the desktop size afterwards. */
export async function checkPhoneScreen(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    // Nothing may stick out sideways at this width (tables scroll inside their own box). Charts
    // follow their box a frame or two after a resize (a ResizeObserver), hence a few looks.
    let overflow = Infinity;
    for (let look = 0; look < 20 && overflow > 0; look += 1) {
      if (look > 0) await page.waitForTimeout(250);
      overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    }
    // What sticks out, named in the failure: the innermost elements past the right edge.
    expect(overflow > 0 ? { overflow, wide: await widerThanPage(page) } : { overflow }).toEqual({ overflow: 0 });
    await checkScreen(page, name);
  } finally {
    if (before) await page.setViewportSize(before);
  }
}

/** The innermost elements past the page's right edge (outside any box that scrolls or clips), as tag.class#id and where they end. */
function widerThanPage(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const width = document.documentElement.clientWidth;
    const clipped = (element) => {
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) if (getComputedStyle(up).overflowX !== 'visible') return true;
      return false;
    };
    const wide = [...document.body.querySelectorAll('*')].filter((element) => element.getBoundingClientRect().right > width + 0.5 && !clipped(element));
    return wide
      .filter((element) => !wide.some((other) => other !== element && element.contains(other)))
      .slice(0, 10)
      .map((element) => element.tagName.toLowerCase() + (element.className ? '.' + String(element.className).split(' ').join('.') : '') + (element.id ? '#' + element.id : '') + ' ' + Math.round(element.getBoundingClientRect().right) + 'px');
  })()`);
}

// Read in the page as expressions: this workspace type-checks with Node's types, not the DOM's.

/** What the console keeps in the tab's sessionStorage. */
export function storedSession(page: Page): Promise<string | null> {
  return page.evaluate<string | null>(`sessionStorage.getItem('cloud.session')`);
}

/** What a copy button put on the clipboard. */
export function clipboard(page: Page): Promise<string> {
  return page.evaluate<string>('navigator.clipboard.readText()');
}

/**
 * A folder where a person ran the node page's line that saves the dev proxy's certificate (copied
 * with its button, as pasted): the page's `--cacert` lines name that file, so they run in it.
 * Checks the saved file is the proxy's certificate.
 */
export async function savedCertificateFolder(page: Page, certificate: string | undefined): Promise<string> {
  await page.getByRole('button', { name: 'Copy the line that saves the proxy’s certificate' }).click();
  const line = await clipboard(page);
  if (!/^curl -sSo cloud-proxy-ca\.pem http:\/\/127\.0\.0\.1:\d+\/proxy-ca\.pem$/.test(line))
    throw new Error(`unexpected line to save the certificate: ${line}`);
  const folder = mkdtempSync(path.join(os.tmpdir(), 'console-paste-'));
  await promisify(execFile)('bash', ['-c', line], { cwd: folder });
  if (readFileSync(path.join(folder, 'cloud-proxy-ca.pem'), 'utf8') !== certificate) throw new Error('the saved file is not the proxy certificate');
  return folder;
}

/**
 * A verified user logged in through the SDK, and the console open in Chromium with that session
 * in its tab, as the console's own login leaves it: for suites about screens past the login.
 */
export async function consoleSignedIn(platform: TestPlatform, email: string, password: string): Promise<{ cloud: CloudClient; browser: Browser }> {
  let session: Session | undefined;
  const cloud = new CloudClient({
    accountsUrl: platform.urls.accounts,
    nodesUrl: platform.urls.nodes,
    stakingUrl: platform.urls.staking,
    streamsUrl: platform.urls.streams,
    onSessionChange: (changed) => (session = changed),
    proxy: { ca: platform.proxy.certificate },
  });
  await cloud.accounts.signUp({ email, password, displayName: 'Ada' });
  const { userId, token } = await platform.verificationFor(email);
  await cloud.accounts.verify(userId, token);
  await cloud.login(email, password);
  const browser = await openBrowser(platform.urls.console!);
  await browser.page.goto(`${platform.urls.console}/`);
  await browser.page.evaluate(`sessionStorage.setItem('cloud.session', ${JSON.stringify(JSON.stringify(session))})`);
  return { cloud, browser };
}
