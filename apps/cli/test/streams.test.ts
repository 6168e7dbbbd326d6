import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestPlatform, type TestPlatform } from '@cloud/all-in-one/testing';
import { cliFor } from './support/cli-runner';

// `cloud streams` against the platform (issue 32): create on a node (by name) with the secret
// shown once, list, info (also `get`, and by name), test (a signed delivery to the test's own
// receiver), pause and resume (each once: a second is the API's 409), rotate-secret, deliveries,
// dead-letters, replay, update, remove (also `delete`); and the failures with the exit codes of
// the table: a refused URL and a transactions stream without addresses (the API's 400 naming the
// field), a bad flag, a stream that is not there.

const PASSWORD = 'correct horse 42';

interface StreamJson {
  id: string;
  name: string;
  nodeId: string;
  state: string;
  secret?: string;
}

/** The receiver's own check of x-cloud-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>. */
const signedWith = (headers: IncomingHttpHeaders, body: string, secret: string) => {
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(headers['x-cloud-signature'])) ?? [];
  return t !== undefined && createHmac('sha256', secret).update(`${t}.${body}`).digest('hex') === v1;
};

describe('cloud streams', () => {
  let platform: TestPlatform;
  let receiver: Server;
  let receiverUrl: string;
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  /** The test deliveries received since the last call (the node's blocks are delivered meanwhile too: they are left out). */
  function testDeliveries(): Array<{ headers: IncomingHttpHeaders; body: string }> {
    return received.splice(0).filter((each) => (JSON.parse(each.body) as { events: Array<{ type: string }> }).events[0]?.type === 'test');
  }
  let account: ReturnType<typeof cliFor>;
  let cli: ReturnType<typeof cliFor>['cli'];
  let node: string;
  let stream: StreamJson;

  beforeAll(async () => {
    platform = await startTestPlatform();
    const streamsUrl = platform.urls.streams!;

    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.end('ok');
      });
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => receiver.once('listening', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    account = cliFor(platform, { CLOUD_STREAMS_URL: streamsUrl });
    ({ cli } = account);
    expect((await cli(['signup', 'streams@example.com', '--password-stdin'], `${PASSWORD}\n`)).code).toBe(0);
    expect((await cli(['verify', (await platform.verificationFor('streams@example.com')).link])).code).toBe(0);
    expect((await cli(['login', 'streams@example.com', '--password-stdin'], `${PASSWORD}\n`)).code).toBe(0);
    // Running, it has long been announced to the streams service (node.created) on the platform's bus.
    node = (await cli(['--json', 'nodes', 'create', 'eth', '--name', 'eth one', '--wait'])).json<{ id: string }>().id;
  }, 120_000);
  afterAll(async () => {
    account?.cleanUp();
    await new Promise((resolve) => receiver?.close(resolve));
    await platform?.stop();
  });

  it('creates a stream on a node named, its secret shown once', async () => {
    const created = await cli(['streams', 'create', 'eth one', '--url', receiverUrl, '--name', 'eth blocks']);
    expect(created.code).toBe(0);
    const id = /^Id:\s+(stream-[0-9a-f-]{36})$/m.exec(created.stdout)?.[1];
    const secret = /^Secret:\s+(whsec_\S+)$/m.exec(created.stdout)?.[1];
    expect([id, secret]).toEqual([expect.any(String), expect.any(String)]);
    expect(created.stdout).toMatch(new RegExp(`^Node:\\s+${node}$`, 'm'));
    expect(created.stdout).toMatch(/^Kind:\s+blocks$/m);
    expect(created.stdout).toMatch(/^State:\s+active$/m);
    expect(created.stdout).toMatch(/^Cursor:\s+not scanned yet$/m);
    expect(created.stderr).toContain('The secret is shown only now');
    stream = { id: id!, name: 'eth blocks', nodeId: node, state: 'active', secret: secret! };

    const listed = (await cli(['--json', 'streams', 'list'])).json<StreamJson[]>();
    expect(listed).toEqual([expect.objectContaining({ id, name: 'eth blocks', nodeId: node, kind: 'blocks', url: receiverUrl })]);
    expect(listed[0]).not.toHaveProperty('secret');
    const table = await cli(['streams', 'list']);
    expect(table.stdout).toMatch(
      new RegExp(
        `^ID\\s+NAME\\s+NODE\\s+KIND\\s+STATE\\s+CURSOR\\s+PENDING\\s+DEAD\\s+URL\\n${id}\\s+eth blocks\\s+${node}\\s+blocks\\s+active\\s+(-|\\d+)\\s+\\d+\\s+0\\s+`,
        'm',
      ),
    );
    expect((await cli(['--json', 'streams', 'get', 'eth blocks'])).json<StreamJson>()).toMatchObject({ id, state: 'active' });
  });

  it('sends a signed test delivery and logs it', async () => {
    const tested = await cli(['streams', 'test', stream.id]);
    expect(tested.code).toBe(0);
    expect(tested.stdout).toMatch(/^AT\s+OUTCOME\s+STATUS\s+MS\s+SEQS\s+ATTEMPT\s+ERROR\n\S+Z\s+test\s+200\s+\d+\s+-\s+1\s+-$/m);
    const [got] = testDeliveries();
    expect(got!.headers['x-cloud-stream']).toBe(stream.id);
    expect(signedWith(got!.headers, got!.body, stream.secret!)).toBe(true);
    const log = (await cli(['--json', 'streams', 'deliveries', 'eth blocks', '--limit', '100'])).json<Array<{ outcome: string; statusCode: number }>>();
    expect(log.filter((attempt) => attempt.outcome === 'test')).toEqual([expect.objectContaining({ outcome: 'test', statusCode: 200 })]);
  });

  it('pauses and resumes once each, rotates the secret, and has no dead letters to replay', async () => {
    expect((await cli(['streams', 'pause', stream.id])).stdout).toMatch(/^State:\s+paused$/m);
    expect(await cli(['streams', 'pause', stream.id])).toMatchObject({ code: 6, stderr: expect.stringContaining('already paused') });
    expect((await cli(['streams', 'resume', stream.id])).stdout).toMatch(/^State:\s+active$/m);
    expect(await cli(['streams', 'resume', stream.id])).toMatchObject({ code: 6, stderr: expect.stringContaining('not paused') });

    const rotated = await cli(['streams', 'rotate-secret', stream.id]);
    const secret = /^Secret:\s+(whsec_\S+)$/m.exec(rotated.stdout)?.[1];
    expect(secret).toBeDefined();
    expect(secret).not.toBe(stream.secret);
    await cli(['streams', 'test', stream.id]);
    const [got] = testDeliveries();
    expect([signedWith(got!.headers, got!.body, secret!), signedWith(got!.headers, got!.body, stream.secret!)]).toEqual([true, false]);

    expect(await cli(['streams', 'dead-letters', stream.id])).toMatchObject({ code: 0, stdout: '', stderr: 'No dead letters.\n' });
    expect(await cli(['streams', 'replay', stream.id])).toMatchObject({ code: 0, stderr: '0 dead letters put back at the end of the stream.\n' });
    expect((await cli(['--json', 'streams', 'update', stream.id, '--name', 'renamed'])).json<StreamJson>()).toMatchObject({ name: 'renamed' });
  });

  it('fails with the exit codes of the table', async () => {
    const refusedUrl = await cli(['--json', 'streams', 'create', node, '--url', 'http://10.0.0.5/hook']);
    expect([refusedUrl.code, refusedUrl.json()]).toEqual([
      2,
      { error: { code: 'InvalidInput', message: expect.stringMatching(/body\.url: .*10\.0\.0\.5/), status: 400, exitCode: 2 } },
    ]);
    expect(await cli(['streams', 'create', node, '--url', receiverUrl, '--kind', 'transactions'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('body.addresses'),
    });
    expect(await cli(['streams', 'create', node, '--url', receiverUrl, '--from-height', '-1'])).toMatchObject({ code: 2 });
    expect(await cli(['streams', 'create', node, '--url', receiverUrl, '--kind', 'logs'])).toMatchObject({ code: 2 });
    expect(await cli(['streams', 'update', stream.id])).toMatchObject({ code: 2, stderr: expect.stringContaining('--name, --url or both') });
    expect(await cli(['streams', 'info', 'no such stream'])).toMatchObject({ code: 5, stderr: expect.stringContaining('no stream of yours') });
    expect((await cli(['--json', 'streams', 'list'])).json<unknown[]>()).toHaveLength(1);
  });

  it('removes the stream (also as delete)', async () => {
    expect(await cli(['streams', 'remove', stream.id])).toMatchObject({ code: 0, stderr: `Deleted ${stream.id}.\n` });
    expect(await cli(['streams', 'delete', stream.id])).toMatchObject({ code: 5, stderr: expect.stringContaining(stream.id) });
    expect(await cli(['streams', 'list'])).toMatchObject({ code: 0, stderr: expect.stringContaining('No streams.') });
  });
});
