import { startTestPlatform, type TestPlatform } from '@cloud/all-in-one/testing';
import { cliFor } from './support/cli-runner';

// A platform with PROXY_TLS=off (TLS ended by an ingress in front): every address the node record
// prints says http, and `cloud rpc` calls it over plain HTTP (it used to say EPROTO) with no CA.

const PASSWORD = 'correct horse 42';

describe('cloud rpc with PROXY_TLS=off', () => {
  let platform: TestPlatform;
  let cli: ReturnType<typeof cliFor>['cli'];
  let cleanUp: () => void;
  let nodeId: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ PROXY_TLS: 'off' });
    ({ cli, cleanUp } = cliFor(platform));
    expect((await cli(['signup', 'plain@example.com', '--password-stdin'], `${PASSWORD}\n`)).code).toBe(0);
    expect((await cli(['verify', (await platform.verificationFor('plain@example.com')).link])).code).toBe(0);
    expect((await cli(['login', 'plain@example.com', '--password-stdin'], `${PASSWORD}\n`)).code).toBe(0);
    nodeId = (await cli(['--json', 'nodes', 'create', 'btc', '--wait'])).json<{ id: string }>().id;
  }, 180_000);
  afterAll(async () => {
    cleanUp?.();
    await platform?.stop();
  });

  it('prints http addresses, and calls the node over them with the kept credential', async () => {
    const info = await cli(['nodes', 'info', nodeId]);
    expect(info.stdout).toMatch(/\nJSON-RPC: +http:\/\/127\.0\.0\.1:\d+\/\n/);
    expect(info.stdout).not.toContain('https://');
    expect(info.stdout).not.toContain('Plain HTTP');
    // The kept credential gives the ready lines: curl without a CA, bitcoin-cli on the same address.
    expect(info.stdout).toMatch(/\n# curl\ncurl -sS -u \S+ .* http:\/\/127\.0\.0\.1:\d+\/\n# bitcoin-cli\nbitcoin-cli -rpcconnect=127\.0\.0\.1 -rpcport=\d+ /);

    const height = await cli(['--json', 'rpc', nodeId, 'getblockcount']);
    expect([height.code, typeof height.json()]).toEqual([0, 'number']);
    const hash = await cli(['rpc', nodeId, 'getblockhash', '0']);
    expect(hash).toMatchObject({ code: 0, stdout: expect.stringMatching(/^[0-9a-f]{64}\n$/) });
  });
});
