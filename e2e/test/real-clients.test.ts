import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { SigningKey, Wallet, hexlify, randomBytes } from 'ethers';
import { verificationFor } from '@cloud/all-in-one/testing';
import { CloudClient, type NewNodeCredential, type Node } from '@cloud/sdk';

// Issue 27, item 6: the platform `npm start` runs, driven by clients nobody here wrote, each
// given the address the API printed (the node record's `endpoints`, a URL token's `urls`) as it
// was printed: no hosts file, no extra header, no environment beyond trusting the dev CA where
// the client can. Each client's results are asserted (balances, block numbers, the coinbase's
// address), so a printed address that stops working for one fails the suite. Then every log the
// platform wrote, the bus messages, the metrics and the error bodies are searched for the URL
// tokens' secrets and the Basic passwords.
//
// How each client trusts the dev proxy's self-signed CA is how its user would:
// - Node.js programs (ethers v6, viem, bitcoin-core) run as their own process with
//   NODE_EXTRA_CA_CERTS=<the CA file>, the ready line's note; none of them is told anything else.
// - cast (rustls) takes SSL_CERT_FILE=<the CA file> for the https:// address; it is also run on
//   the plain http:// address the record prints for loopback callers (the ready line's choice).
// - litecoin-cli speaks no TLS: the record's plain http:// address, on 127.0.0.1.
//
// The platform runs as its own process (real-clients/platform-process.ts), logging at debug level
// to a file, so the secrets check reads everything it logged, from start to shutdown.

const HERE = path.join(__dirname, 'real-clients');
const CAST = require.resolve('@foundry-rs/cast-linux-amd64/bin/cast');
const LITECOIN_CLI = process.env.LITECOIN_CLI_PATH ?? '/usr/bin/litecoin-cli';
const PASSWORD = 'correct horse 42';
const ETHER = 10n ** 18n;

interface Ready {
  urls: Record<string, string>;
  dataDir: string;
  proxy: { ports: Record<string, number>; adminUrl: string; scheme: string; certificate: string };
}

interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end (never rejects): its exit code and output. */
function run(file: string, args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 120_000): Promise<Exited> {
  return new Promise((resolve) => {
    execFile(file, args, { env: { ...process.env, ...env }, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** A POST of one JSON-RPC call with node's https, trusting `ca`: the status and the body's text. */
function postJson(url: string, ca: string, body: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(url, { method: 'POST', ca, headers: { 'content-type': 'application/json' } }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

/**
 * Every file under `dir` whose name says it is a log: each node's node.log and node.out (its
 * stdout and stderr), litecoind's debug.log if it writes one, and LevelDB's write-ahead *.log
 * files in the chain data, searched as well.
 */
function logFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /(\.log|\.out)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('real clients against the platform npm start runs, at the addresses it prints', () => {
  let runDir: string;
  let child: ChildProcess | undefined;
  let childExit: Promise<unknown>;
  let ready: Ready;
  let caFile: string;
  let cloud: CloudClient;
  let eth: Node;
  let ltc: Node;
  let token: NewNodeCredential & { kind: 'token' };
  /** Secrets that must never be written anywhere: URL tokens (rotated ones too) and Basic passwords, by name. */
  const secrets = new Map<string, string>();
  /** The error bodies the platform answered (refusals, revoked tokens), for the secrets check. */
  const errorBodies: string[] = [];
  /** NODE_EXTRA_CA_CERTS for the Node.js clients, as the platform's ready lines say. */
  const nodeClient = async (script: string, input: unknown): Promise<Record<string, unknown>> => {
    const result = await run(process.execPath, [path.join(HERE, script), JSON.stringify(input)], { NODE_EXTRA_CA_CERTS: caFile });
    if (result.code !== 0) throw new Error(`${script} exited ${result.code}:\n${result.stderr}${result.stdout}`);
    return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
  };

  beforeAll(async () => {
    runDir = mkdtempSync(path.join(os.tmpdir(), 'real-clients-'));
    const log = openSync(path.join(runDir, 'platform.log'), 'a');
    const started = spawn(
      process.execPath,
      ['--conditions=@cloud/source', '-r', require.resolve('@cloud/jest-preset/run-typescript.cjs'), path.join(HERE, 'platform-process.ts'), runDir],
      {
        cwd: HERE,
        stdio: ['ignore', log, log],
      },
    );
    closeSync(log);
    child = started;
    childExit = once(started, 'exit');
    const readyFile = path.join(runDir, 'ready.json');
    for (let waited = 0; !existsSync(readyFile); waited += 200) {
      if (started.exitCode !== null || waited > 150_000)
        throw new Error(`the platform did not start:\n${readFileSync(path.join(runDir, 'platform.log'), 'utf8').slice(-4000)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    ready = JSON.parse(readFileSync(readyFile, 'utf8')) as Ready;
    // The dev CA file a user trusts (`.data/tls/proxy-cert.pem` under npm start).
    caFile = path.join(ready.dataDir, 'tls', 'proxy-cert.pem');
    expect(readFileSync(caFile, 'utf8')).toBe(ready.proxy.certificate);

    // A user made through the SDK, as the SDK's walk does.
    cloud = new CloudClient({
      accountsUrl: ready.urls.accounts!,
      nodesUrl: ready.urls.nodes!,
      stakingUrl: ready.urls.staking!,
      proxy: { ca: ready.proxy.certificate },
    });
    await cloud.accounts.signUp({ email: 'clients@example.com', password: PASSWORD, displayName: 'Clients' });
    const { userId, token: verification } = await verificationFor(ready.dataDir, 'clients@example.com');
    await cloud.accounts.verify(userId, verification);
    await cloud.login('clients@example.com', PASSWORD);

    const [createdEth, createdLtc] = await Promise.all([cloud.nodes.create({ image: 'eth' }), cloud.nodes.create({ image: 'ltc', txindex: true })]);
    secrets.set('eth Basic password', createdEth.nodePass!);
    secrets.set('ltc Basic password', createdLtc.nodePass!);
    await Promise.all([cloud.nodes.waitUntilRunning(createdEth.id, { intervalMs: 250 }), cloud.nodes.waitUntilRunning(createdLtc.id, { intervalMs: 250 })]);
    // The records as the nodes API prints them (GET /users/me/nodes/:id), with the Basic credentials of the create answer.
    eth = { ...(await cloud.nodes.get(createdEth.id)), nodeUser: createdEth.nodeUser, nodePass: createdEth.nodePass };
    ltc = { ...(await cloud.nodes.get(createdLtc.id)), nodeUser: createdLtc.nodeUser, nodePass: createdLtc.nodePass };
    expect(eth).toMatchObject({
      dev: true,
      state: 'running',
      endpoints: {
        jsonRpc: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+\/$/),
        plain: { jsonRpc: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/) },
      },
    });
    expect(ltc).toMatchObject({ dev: true, txindex: true, state: 'running', endpoints: { jsonRpc: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+\/$/) } });

    const created = await cloud.nodes.createCredential(eth.id, { name: 'app', kind: 'token' });
    if (created.kind !== 'token') throw new Error('a URL token was asked for');
    token = created;
    secrets.set('URL token', token.token);
    // The proxy learns a new token from the bus after the API answered (here it answers the first
    // call already); the wait keeps a busy machine from failing on that moment.
    await waitFor(
      'the proxy to take the new URL token',
      async () => (await postJson(token.urls.jsonRpc, ready.proxy.certificate, rpc('eth_blockNumber'))).status === 200,
      10_000,
    );
  });

  afterAll(async () => {
    await stopPlatform();
    if (runDir) rmSync(runDir, { recursive: true, force: true });
  });

  /** SIGTERM, as Ctrl-C would: the platform stops its nodes and exits. */
  async function stopPlatform(): Promise<void> {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child?.kill('SIGKILL'), 60_000);
    await childExit;
    clearTimeout(timer);
  }

  it('ethers v6 over HTTPS at the URL token address: funds a fresh wallet, sends a signed transaction, reads the balances', async () => {
    expect(token.urls.jsonRpc).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/nt_[A-Za-z0-9_-]{43}$/);
    const result = await nodeClient('ethers-http.mjs', { url: token.urls.jsonRpc });
    const funded = 10n * ETHER;
    const sent = (125n * ETHER) / 100n;
    expect(result).toMatchObject({ funded: funded.toString(), balanceTo: sent.toString(), receipt: { status: 1, from: result.wallet, to: result.to } });
    const receipt = result.receipt as { blockNumber: number; fee: string };
    expect(receipt.blockNumber).toBeGreaterThan(result.startBlock as number);
    expect(BigInt(result.balanceFrom as string)).toBe(funded - sent - BigInt(receipt.fee));
    // The refusal, as ethers v6 classifies it (the proxy's answer in info.error).
    expect(result.refused).toMatchObject({ code: 'UNSUPPORTED_OPERATION', answer: { code: -32601, data: { refusedBy: 'platform', method: 'anvil_reset' } } });
    errorBodies.push(JSON.stringify(result.refused));
  });

  it('ethers v6 WebSocketProvider at the wss:// token address: sees a new block after evm_mine', async () => {
    expect(token.urls.webSocket).toMatch(/^wss:\/\/127\.0\.0\.1:\d+\/nt_/);
    const result = await nodeClient('ethers-websocket.mjs', { url: token.urls.webSocket });
    expect(result.block).toBeGreaterThan(result.start as number);
    expect(result.seen).toContain(result.block);
    expect(result.hash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('viem over HTTPS at the URL token address: block number, a funded account and a signed transaction from a wallet client', async () => {
    const result = await nodeClient('viem.mjs', { url: token.urls.jsonRpc });
    expect(BigInt(result.blockNumber as string)).toBeGreaterThan(0n);
    const sent = (75n * ETHER) / 100n;
    expect(result).toMatchObject({
      balanceTo: sent.toString(),
      receipt: { status: 'success', from: (result.account as string).toLowerCase(), to: (result.to as string).toLowerCase() },
    });
    expect(BigInt(result.balanceFrom as string)).toBeLessThan(5n * ETHER - sent);
    expect(BigInt(result.balanceFrom as string)).toBeGreaterThan(5n * ETHER - sent - ETHER / 100n);
    expect(result.refused).toMatchObject({ name: 'MethodNotFoundRpcError', code: -32601 });
    errorBodies.push(JSON.stringify(result.refused));
  });

  it("foundry's cast: block-number, funding, send and balance, at the https:// token address (SSL_CERT_FILE) and the plain one", async () => {
    const https = token.urls.jsonRpc;
    const plain = token.urls.plain?.jsonRpc;
    expect(plain).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/nt_/);
    const withCa = { SSL_CERT_FILE: caFile };
    const cast = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
      const result = await run(CAST, args, env);
      if (result.code !== 0) throw new Error(`cast ${args[0]} exited ${result.code}: ${result.stderr}`);
      return result.stdout.trim();
    };
    const overTls = Number(await cast(['block-number', '--rpc-url', https], withCa));
    const overPlain = Number(await cast(['block-number', '--rpc-url', plain!]));
    expect(overTls).toBeGreaterThan(0);
    expect(overPlain).toBeGreaterThanOrEqual(overTls);

    const wallet = Wallet.createRandom();
    const to = Wallet.createRandom().address;
    await cast(['rpc', 'anvil_setBalance', wallet.address, `0x${(3n * ETHER).toString(16)}`, '--rpc-url', https], withCa);
    expect(await cast(['balance', wallet.address, '--rpc-url', plain!])).toBe((3n * ETHER).toString());
    const receipt = JSON.parse(await cast(['send', '--private-key', wallet.privateKey, '--rpc-url', https, '--json', to, '--value', '2ether'], withCa)) as {
      status: string;
      from: string;
      to: string;
    };
    expect(receipt).toMatchObject({ status: '0x1', from: wallet.address.toLowerCase(), to: to.toLowerCase() });
    expect(await cast(['balance', to, '--rpc-url', plain!])).toBe((2n * ETHER).toString());
    expect(BigInt(await cast(['balance', wallet.address, '--rpc-url', https], withCa))).toBeLessThan(ETHER);
  });

  it('the bitcoin-core npm client with Basic at the printed https:// address: mines to an address and reads the coinbase back on a txindex node', async () => {
    // A key of the developer's own, made here: the compressed public key of a random private key.
    const key = SigningKey.computePublicKey(hexlify(randomBytes(32)), true).slice(2);
    const result = await nodeClient('bitcoin-core.mjs', { host: ltc.endpoints.jsonRpc, username: ltc.nodeUser, password: ltc.nodePass, key });
    // The platform mines its dev chains too (every few seconds), so other blocks may come between.
    const height = result.height as number;
    expect(height).toBeGreaterThan(result.before as number);
    expect(result.after).toBeGreaterThanOrEqual(height);
    expect(result).toMatchObject({ coinbaseIsFirst: true, isCoinbase: true });
    // Litecoin's regtest bech32 prefix, and the coinbase paying it the block subsidy (50 LTC, halved every 150 blocks on regtest).
    expect(result.address).toMatch(/^rltc1q[02-9ac-hj-np-z]{38}$/);
    expect(result.paid).toEqual([50 / 2 ** Math.floor(height / 150)]);
    expect(result.refused).toMatchObject({ code: -32601, message: expect.stringContaining('not allowed') });
    errorBodies.push(JSON.stringify(result.refused));
  });

  it("Debian's litecoin-cli with Basic at the printed plain address: getblockcount, and stop refused", async () => {
    const plain = new URL(ltc.endpoints.plain!.jsonRpc);
    expect(plain).toMatchObject({ protocol: 'http:', hostname: '127.0.0.1' });
    const cli = (method: string) =>
      run(LITECOIN_CLI, [`-rpcconnect=${plain.hostname}`, `-rpcport=${plain.port}`, `-rpcuser=${ltc.nodeUser}`, `-rpcpassword=${ltc.nodePass}`, method]);
    const count = await cli('getblockcount');
    expect(count).toMatchObject({ code: 0, stderr: '' });
    // At least the block the bitcoin-core test mined.
    expect(Number(count.stdout.trim())).toBeGreaterThanOrEqual(1);
    const refused = await cli('stop');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('error code: -32601');
    expect(refused.stderr).toContain('method "stop" is not allowed on this hosted node');
    errorBodies.push(refused.stdout, refused.stderr);
    // The node still runs.
    expect(Number((await cli('getblockcount')).stdout.trim())).toBeGreaterThanOrEqual(Number(count.stdout.trim()));
  });

  it("pools at the addresses they print: cast at an eth pool's URL token address, litecoin-cli with an ltc pool's Basic credential at its plain address", async () => {
    // A second node of each chain, and a pool over the two of each (issue 31).
    const [secondEth, secondLtc] = await Promise.all([cloud.nodes.create({ image: 'eth' }), cloud.nodes.create({ image: 'ltc' })]);
    await Promise.all([cloud.nodes.waitUntilRunning(secondEth.id, { intervalMs: 250 }), cloud.nodes.waitUntilRunning(secondLtc.id, { intervalMs: 250 })]);
    const [ethPool, ltcPool] = await Promise.all([
      cloud.pools.create({ name: 'eth pool', members: [eth.id, secondEth.id] }),
      cloud.pools.create({ name: 'ltc pool', members: [ltc.id, secondLtc.id] }),
    ]);
    secrets.set('eth pool Basic password', ethPool.nodePass!);
    secrets.set('ltc pool Basic password', ltcPool.nodePass!);
    const poolToken = await cloud.pools.createCredential(ethPool.id, { name: 'app', kind: 'token' });
    if (poolToken.kind !== 'token') throw new Error('a URL token was asked for');
    secrets.set('pool URL token', poolToken.token);

    const withCa = { SSL_CERT_FILE: caFile };
    // The proxy takes the pool from the bus and reads its members' heads before it routes a call.
    await waitFor('the eth pool to serve', async () => (await run(CAST, ['block-number', '--rpc-url', poolToken.urls.jsonRpc], withCa)).code === 0, 20_000);
    const blockNumber = await run(CAST, ['block-number', '--rpc-url', poolToken.urls.jsonRpc], withCa);
    expect(blockNumber).toMatchObject({ code: 0, stderr: '' });
    expect(Number(blockNumber.stdout.trim())).toBeGreaterThanOrEqual(0);
    const chainId = await run(CAST, ['chain-id', '--rpc-url', poolToken.urls.jsonRpc], withCa);
    expect(chainId).toMatchObject({ code: 0, stdout: '31337\n' });

    const plain = new URL(ltcPool.endpoints.plain!.jsonRpc);
    expect(plain).toMatchObject({ protocol: 'http:', hostname: '127.0.0.1' });
    const cli = (...args: string[]) =>
      run(LITECOIN_CLI, [
        `-rpcconnect=${plain.hostname}`,
        `-rpcport=${plain.port}`,
        `-rpcuser=${ltcPool.nodeUser}`,
        `-rpcpassword=${ltcPool.nodePass}`,
        ...args,
      ]);
    await waitFor('the ltc pool to serve', async () => (await cli('getblockcount')).code === 0, 20_000);
    const hash = await cli('getblockhash', '0');
    expect(hash).toMatchObject({ code: 0, stderr: '', stdout: expect.stringMatching(/^[0-9a-f]{64}\n$/) });
    // A caller's failing call is the node's answer, passed on as litecoin-cli expects it.
    const outOfRange = await cli('getblockhash', '99999999');
    expect(outOfRange.code).not.toBe(0);
    expect(outOfRange.stderr).toContain('error code: -8');
    const refused = await cli('stop');
    expect(refused.stderr).toContain('error code: -32601');
    errorBodies.push(outOfRange.stderr, refused.stderr);
  });

  it('rotating the URL token: the old address is refused within 1 s, the new one answers', async () => {
    const old = token.urls.jsonRpc;
    const rotated = await cloud.nodes.rotateCredential(eth.id, token.id);
    const rotatedAt = Date.now();
    if (rotated.kind !== 'token') throw new Error('a URL token was rotated');
    secrets.set('rotated URL token', rotated.token);
    expect(rotated).toMatchObject({ id: token.id, name: 'app' });
    expect(rotated.token).not.toBe(token.token);
    let refused: { status: number; text: string } | undefined;
    while (!refused && Date.now() - rotatedAt < 5_000) {
      const answer = await postJson(old, ready.proxy.certificate, rpc('eth_blockNumber'));
      if (answer.status !== 200) refused = answer;
    }
    const took = Date.now() - rotatedAt;
    expect(refused?.status).toBe(401);
    expect(took).toBeLessThan(1_000);
    errorBodies.push(refused!.text);
    await waitFor(
      'the rotated token to answer',
      async () => (await postJson(rotated.urls.jsonRpc, ready.proxy.certificate, rpc('eth_blockNumber'))).status === 200,
      5_000,
    );
    // A wrong Basic password's answer, for the secrets check too.
    const wrong = await run(LITECOIN_CLI, [
      `-rpcconnect=127.0.0.1`,
      `-rpcport=${new URL(ltc.endpoints.plain!.jsonRpc).port}`,
      `-rpcuser=${ltc.nodeUser}`,
      '-rpcpassword=wrong',
      'getblockcount',
    ]);
    expect(wrong.code).not.toBe(0);
    errorBodies.push(wrong.stdout, wrong.stderr);
  });

  it('no log the platform wrote, bus message, metric, event or error body holds a URL token or a Basic password', async () => {
    // Read from the running platform first: its metrics, the user's events, the nodes' logs and usage.
    const metrics = await fetch(`${ready.proxy.adminUrl}/metrics`).then((response) => response.text());
    expect(metrics).toContain('node_proxy_');
    const events = JSON.stringify(await cloud.accounts.events({ limit: 100 }));
    const nodeLogs = JSON.stringify([await cloud.nodes.logs(eth.id, 500), await cloud.nodes.logs(ltc.id, 500)]);
    // The proxy publishes usage every second: the token's calls reach the nodes service, counted by the credential's id.
    await waitFor("the token's calls in the usage", async () => JSON.stringify(await cloud.nodes.usage(eth.id)).includes(token.id), 15_000);
    const usage = JSON.stringify(await cloud.nodes.usage(eth.id));

    await stopPlatform();
    const platformLog = readFileSync(path.join(runDir, 'platform.log'), 'utf8');
    const bus = readFileSync(path.join(runDir, 'bus.jsonl'), 'utf8');
    const files = logFiles(ready.dataDir);
    // Not an empty search: the platform logged at debug level, the bus carried the run's usage, both nodes logged.
    expect(platformLog.split('\n').length).toBeGreaterThan(50);
    expect(platformLog).toContain('"level":"debug"');
    expect(bus).toContain('"kind":"node.usage"');
    expect(bus).toContain(token.id);
    expect(files.filter((file) => file.includes(eth.id)).length).toBeGreaterThan(0);
    expect(files.filter((file) => file.includes(ltc.id)).length).toBeGreaterThan(0);
    expect(errorBodies.length).toBeGreaterThanOrEqual(6);

    const sources: Array<[string, string]> = [
      ['the platform log (stdout and stderr, debug level)', platformLog],
      ['the bus messages', bus],
      ['the proxy metrics', metrics],
      ["the user's events", events],
      ["the nodes' logs (API)", nodeLogs],
      ['the node usage (API)', usage],
      ...files.map((file): [string, string] => [path.relative(runDir, file), readFileSync(file, 'latin1')]),
      ...errorBodies.map((body, index): [string, string] => [`error body ${index}`, body]),
    ];
    const leaks = sources.flatMap(([source, text]) => [...secrets].filter(([, secret]) => text.includes(secret)).map(([name]) => `${name} in ${source}`));
    expect(leaks).toEqual([]);
    expect(secrets.size).toBe(7);
  });
});

function rpc(method: string, params: unknown[] = []) {
  return { jsonrpc: '2.0', id: 1, method, params };
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
