import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestPlatform, type TestPlatform } from '@cloud/all-in-one/testing';
import { InvalidInputError, type CloudClient, type Node } from '@cloud/sdk';
import { checkPhoneScreen, checkScreen, consoleSignedIn, seriousViolations, type Browser } from './browser';

// Streams in the web console (issue 32): from a dev eth node's page to its streams, a blocks
// stream created with the form to a receiver this test runs on 127.0.0.1 (the all-in-one allows
// loopback targets), its signing secret shown once; the stream's page: pause and resume, a test
// delivery with its status code, the node's blocks arriving in the deliveries log, a rotated
// secret shown once, delete after a confirmation. The receiver checks every signature.
// Screenshots as console.test.ts takes them, streams-*.

const PASSWORD = 'correct horse 42';

interface Received {
  raw: string;
  signature: string;
  body: { streamId: string; events: { id: string; seq: number; type: string; height?: number }[] };
}

/** `x-cloud-signature` (t=<seconds>,v1=<hex>) checked against `secret` with this test's own HMAC code. */
function signedWith(secret: string, { raw, signature }: Received): boolean {
  const parts = new Map(signature.split(',').map((part) => part.split('=') as [string, string]));
  const expected = createHmac('sha256', secret)
    .update(`${parts.get('t')}.${raw}`)
    .digest();
  const given = Buffer.from(parts.get('v1') ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('streams in the web console', () => {
  let platform: TestPlatform;
  let browser: Browser;
  let cloud: CloudClient;
  let node: Node;
  let receiver: Server;
  let receiverUrl: string;
  const received: Received[] = [];
  let streamId: string;
  let secret: string;

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({ raw, signature: String(request.headers['x-cloud-signature']), body: JSON.parse(raw) as Received['body'] });
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    platform = await startTestPlatform({ CONSOLE_PORT: '0', STREAMS_ALLOW_TARGETS: 'loopback' });
    ({ cloud, browser } = await consoleSignedIn(platform, 'streams@example.com', PASSWORD));
    node = await cloud.nodes.create({ image: 'eth', name: 'eth blocks' });
    node = await cloud.nodes.waitUntilRunning(node.id, { intervalMs: 500, timeoutMs: 150_000 });
    // The streams service learns of the node from the bus: until then it answers that it has no such node.
    // A private address is refused only once the node is known, so that refusal says it is.
    for (let known = false; !known;) {
      known = await cloud.streams.create({ nodeId: node.id, kind: 'blocks', url: 'http://10.0.0.5/' }).then(
        () => Promise.reject(new Error('a private address was taken')),
        (error: unknown) => error instanceof InvalidInputError,
      );
      if (!known) await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  const page = () => browser.page;

  it("creates a blocks stream from the node's page, its secret shown once, and lists it", async () => {
    await page().goto(`${platform.urls.console}/nodes/${node.id}`);
    await page().getByRole('link', { name: 'Streams of this node' }).click();
    await page()
      .getByRole('heading', { name: `Streams of ${node.id}`, level: 2 })
      .waitFor();
    await page().getByText('No streams yet: create one below.').waitFor();
    // The node is chosen; blocks by default.
    const chosen = page().getByLabel('Node or pool');
    expect(await chosen.inputValue()).toBe(node.id);
    expect(
      await page()
        .getByRole('radio', { name: /^Blocks/ })
        .isChecked(),
    ).toBe(true);

    // A private address: the API's words, nothing stored.
    await page().getByLabel('URL', { exact: true }).fill('http://10.0.0.5/hooks');
    await page().getByRole('button', { name: 'Create the stream' }).click();
    await page()
      .getByRole('alert')
      .filter({ hasText: 'InvalidInput' })
      .getByText(/private/)
      .waitFor();
    expect(await cloud.streams.list()).toEqual([]);

    await page().getByLabel('URL', { exact: true }).fill(receiverUrl);
    await page().getByLabel('Name (optional)').fill('chain blocks');
    await page().getByRole('button', { name: 'Create the stream' }).click();
    secret = (await page().getByTestId('stream-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await page().getByText('x-cloud-signature', { exact: false }).first().waitFor();
    const row = page().locator('tr[data-stream-id]');
    await row.waitFor();
    streamId = (await row.getAttribute('data-stream-id'))!;
    expect(streamId).toMatch(/^stream-[0-9a-f-]{36}$/);
    await row.getByRole('link', { name: 'chain blocks' }).waitFor();
    expect(await cloud.streams.get(streamId)).toMatchObject({ name: 'chain blocks', nodeId: node.id, kind: 'blocks', url: receiverUrl, state: 'active' });
    expect((await cloud.streams.get(streamId)).secret).toBeUndefined();
    await checkScreen(page(), 'streams-01-list');
    await checkPhoneScreen(page(), 'streams-03-list-phone');

    // Hidden once copied; never shown again.
    await page().getByRole('button', { name: 'I have copied it: hide the secret' }).click();
    expect(await page().getByTestId('stream-secret').count()).toBe(0);
  });

  it('pauses and resumes the stream, and sends a test delivery that the receiver gets signed', async () => {
    await page().getByRole('link', { name: 'chain blocks' }).click();
    await page().getByRole('heading', { name: 'chain blocks', level: 1 }).waitFor();
    expect(await page().getByTestId('stream-id').textContent()).toBe(streamId);

    await page().getByRole('button', { name: 'Pause', exact: true }).click();
    await page().getByTestId('stream-state').getByText('Paused').waitFor();
    expect((await cloud.streams.get(streamId)).state).toBe('paused');
    await page().getByRole('button', { name: 'Resume', exact: true }).click();
    await page().getByTestId('stream-state').getByText('Active').waitFor();
    expect((await cloud.streams.get(streamId)).state).toBe('active');

    await page().getByRole('button', { name: 'Send a test delivery' }).click();
    await page().getByTestId('stream-test-result').getByText('Test delivery: test, status 200', { exact: false }).waitFor();
    const test = received.find((delivery) => delivery.body.events.some((event) => event.type === 'test'));
    expect(test?.body.streamId).toBe(streamId);
    expect(signedWith(secret, test!)).toBe(true);
    // In the log too, as a test.
    const logged = page().getByTestId('deliveries-table').locator('tr[data-outcome="test"]');
    await logged.first().waitFor();
    expect(await logged.first().textContent()).toContain('200');
    expect(await seriousViolations(page())).toEqual([]);
  });

  it("delivers the node's blocks in order, signed, and shows them in the deliveries log", async () => {
    const table = page().getByTestId('deliveries-table');
    await table.locator('tr[data-outcome="delivered"]').first().waitFor({ timeout: 120_000 });
    const blocks = received.filter((delivery) => delivery.body.events.some((event) => event.type === 'block'));
    expect(blocks.length).toBeGreaterThan(0);
    for (const delivery of blocks) expect(signedWith(secret, delivery)).toBe(true);
    const seqs = blocks.flatMap((delivery) => delivery.body.events.map((event) => event.seq));
    expect(seqs).toEqual(seqs.map((_, index) => index + 1));
    const row = table.locator('tr[data-outcome="delivered"]').first();
    expect(await row.textContent()).toContain('200');
    await checkScreen(page(), 'streams-02-stream');
    await checkPhoneScreen(page(), 'streams-04-stream-phone');
  });

  it('rotates the secret (the new one shown once) and deletes the stream after a confirmation', async () => {
    await page().getByRole('button', { name: 'Rotate the secret' }).click();
    await page().getByRole('dialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate the secret' }).click();
    const rotated = (await page().getByTestId('stream-secret').textContent())!.trim();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    // The next delivery is signed with the new secret.
    const before = received.length;
    await page().getByRole('button', { name: 'Send a test delivery' }).click();
    await page().getByTestId('stream-test-result').waitFor();
    const tests = received.slice(before).filter((delivery) => delivery.body.events.some((event) => event.type === 'test'));
    expect(tests.length).toBe(1);
    expect(signedWith(rotated, tests[0]!)).toBe(true);

    await page().getByRole('button', { name: 'Delete', exact: true }).click();
    await page().getByRole('dialog', { name: 'Delete this stream?' }).getByRole('button', { name: 'Delete the stream' }).click();
    await page().getByRole('status').getByText('Stream chain blocks is deleted: nothing more is delivered.').waitFor();
    await page().getByText('No streams yet: create one below.').waitFor();
    expect(await cloud.streams.list()).toEqual([]);
  });
});
