import { startTestPlatform, type TestPlatform } from '@cloud/all-in-one/testing';
import { barChart } from '../src/bar-chart';
import { cliFor } from './support/cli-runner';

// `cloud nodes usage` against the real platform: calls made with `cloud rpc` through the proxy,
// stored by the nodes service, shown as a chart and a table, or as JSON.

const PASSWORD = 'correct horse 42';

interface UsageJson {
  nodeId: string;
  granularity: string;
  series: { time: string; total: number }[];
  methods: { method: string; calls: Record<string, number>; total: number }[];
  totals: { total: number; calls: Record<string, number> };
  credentials: { credentialId: string; name: string | null; kind?: 'basic' | 'token' | null; total: number }[];
}

describe('cloud nodes usage', () => {
  let platform: TestPlatform;
  let cli: ReturnType<typeof cliFor>['cli'];
  let cleanUp: () => void;
  let nodeId: string;

  beforeAll(async () => {
    // The proxy publishes its counts every 200 ms, as it would every minute.
    platform = await startTestPlatform({ PROXY_USAGE_INTERVAL_MS: '200' });
    ({ cli, cleanUp } = cliFor(platform));
    expect((await cli(['signup', 'usage@example.com', '--password-stdin'], `${PASSWORD}\n`)).code).toBe(0);
    expect((await cli(['verify', (await platform.verificationFor('usage@example.com')).link])).code).toBe(0);
    expect((await cli(['login', 'usage@example.com', '--password-stdin'], `${PASSWORD}\n`)).code).toBe(0);
    const created = await cli(['--json', 'nodes', 'create', 'ltc', '--wait']);
    expect([created.code, created.stderr, created.stdout]).toEqual([0, '', expect.any(String)]);
    nodeId = created.json<{ id: string }>().id;
  }, 120_000);
  afterAll(async () => {
    cleanUp?.();
    await platform?.stop();
  });

  it('shows the calls made through the proxy as a chart and a table, and as JSON', async () => {
    for (let index = 0; index < 3; index += 1) expect(await cli(['rpc', nodeId, 'getblockcount'])).toMatchObject({ code: 0, stderr: '' });
    expect((await cli(['rpc', nodeId, 'stop'])).code).not.toBe(0);

    let usage: UsageJson | undefined;
    for (let tries = 0; tries < 200 && (usage?.totals.total ?? 0) < 4; tries += 1) {
      const answer = await cli(['--json', 'nodes', 'usage', nodeId]);
      expect(answer.code).toBe(0);
      usage = answer.json<UsageJson>();
      if (usage.totals.total < 4) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(usage).toMatchObject({ nodeId, granularity: 'minute', totals: { total: 4, calls: { ok: 3, refused: 1 } } });
    expect(usage!.series).toHaveLength(61);
    expect(usage!.methods).toEqual([
      { method: 'getblockcount', calls: { ok: 3, node_error: 0, refused: 0, rate_limited: 0, unauthorized: 0 }, total: 3 },
      // A refused call under its method's name (issue 28: all were `other`).
      { method: 'stop', calls: { ok: 0, node_error: 0, refused: 1, rate_limited: 0, unauthorized: 0 }, total: 1 },
    ]);

    const human = await cli(['nodes', 'usage', nodeId]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/Calls:\s+4 \(ok 3, refused 1\)/);
    expect(human.stdout).toContain('Calls per minute:');
    // The y axis is labelled with the busiest minute's calls (all 4, unless a minute ended among them).
    const peak = Math.max(...usage!.series.map((point) => point.total));
    expect(human.stdout).toMatch(new RegExp(`^${peak} ┤ *█`, 'm'));
    expect(human.stdout).toMatch(/^METHOD +OK +NODE ERROR +REFUSED +RATE LIMITED +UNAUTHORIZED +TOTAL$/m);
    expect(human.stdout).toMatch(/^getblockcount +3 +0 +0 +0 +0 +3$/m);
    expect(human.stdout).toMatch(/^stop +0 +0 +1 +0 +0 +1$/m);
    // `cloud rpc` calls with the node's first credential, `default`: its 4 calls, by outcome.
    expect(usage!.credentials).toEqual([
      {
        credentialId: expect.any(String),
        name: 'default',
        kind: 'basic',
        calls: { ok: 3, node_error: 0, refused: 1, rate_limited: 0, unauthorized: 0 },
        total: 4,
      },
    ]);
    expect(human.stdout).toMatch(/^CREDENTIAL +ID +OK +NODE ERROR +REFUSED +RATE LIMITED +UNAUTHORIZED +TOTAL$/m);
    expect(human.stdout).toMatch(/^default +\S+ +3 +0 +1 +0 +0 +4$/m);

    const byHour = await cli(['--json', 'nodes', 'usage', nodeId, '--granularity', 'hour']);
    expect(byHour.json<UsageJson>()).toMatchObject({ granularity: 'hour', totals: { total: 4 } });
  }, 180_000);

  it('says what is wrong with a range, an unknown node or a granularity', async () => {
    const range = await cli(['--json', 'nodes', 'usage', nodeId, '--from', '2026-11-25T10:00:00Z', '--to', '2026-11-25T09:00:00Z']);
    expect(range.code).not.toBe(0);
    expect(range.json()).toMatchObject({ error: { code: 'InvalidInput', status: 400, message: expect.stringContaining('query.from') } });
    const unknown = await cli(['--json', 'nodes', 'usage', 'node-00000000-0000-4000-8000-000000000000']);
    expect(unknown.code).toBe(5);
    expect(unknown.json()).toMatchObject({ error: { code: 'NotFound', status: 404 } });
    const granularity = await cli(['nodes', 'usage', nodeId, '--granularity', 'day']);
    expect(granularity.code).toBe(2);
    expect(granularity.stderr).toContain("'day' is invalid");
  });
});

describe('the usage bar chart', () => {
  it('draws bars in eighths of a row, sums long series into columns, and labels the axes', () => {
    const chart = barChart(
      [
        { label: '10:00', value: 8 },
        { label: '10:01', value: 0 },
        { label: '10:02', value: 4 },
        { label: '10:03', value: 1 },
      ],
      { height: 2 },
    );
    expect(chart).toBe(['8 ┤█  ', '0 ┤█ █▂', '  └────', '   10:00'].map((line) => line.trimEnd()).join('\n') + '\n');
    const summed = barChart(
      Array.from({ length: 10 }, (_, index) => ({ label: String(index), value: 1 })),
      { height: 1, width: 5 },
    );
    expect(summed.split('\n')[0]).toBe('2 ┤█████');
    expect(barChart([])).toBe('');
  });
});
