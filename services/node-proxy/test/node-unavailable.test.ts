import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { nodeRpcAuthorization } from '@cloud/node-rpc-auth';
import { bearer, findOnPath } from '@cloud/nodes/testing';
import type { NodeProxy } from '../src';
import { DEFAULT_FILTER_DIR } from '../src/config';
import { checkRequest } from '../src/json-rpc/json-rpc';
import { loadMethodPolicies } from '../src/json-rpc/method-policy';
import { mayBeUnavailable, unavailableAnswer } from '../src/json-rpc/node-unavailable';
import { callProxy, platformRefusal, type ProxyAnswer } from './client';
import { startProxyPlatform, waitUntil, type CreatedNode, type ProxyPlatform, type TestUser } from './harness';

// Issue 29, item 7: Litecoin Core's own moments of unavailability (its work queue full: an HTML
// 503 page; loading or verifying its blocks: -28 as HTTP 500) reach callers as 503 with
// Retry-After and a JSON-RPC error in the node's dialect, and a node answering -28 is not `running`.
describe('a Litecoin Core node busy or warming up, through the proxy', () => {
  let dir: string;
  let platform: ProxyPlatform;
  let proxy: NodeProxy;
  let user: TestUser;
  let node: CreatedNode;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'node-unavailable-'));
    const litecoind = findOnPath('litecoind');
    if (!litecoind) throw new Error('litecoind is not installed (Debian package litecoind)');
    // The real daemon with one RPC thread and a work queue of one (two calls make it busy), and
    // every block verified at start (its warm-up lasts as long as its chain is long).
    const wrapper = path.join(dir, 'litecoind');
    writeFileSync(wrapper, `#!/bin/sh\nexec ${litecoind} -rpcthreads=1 -rpcworkqueue=1 -checklevel=4 -checkblocks=0 "$@"\n`);
    chmodSync(wrapper, 0o755);
    platform = await startProxyPlatform({ nodesEnv: { LITECOIND_PATH: wrapper } });
    // No cache: getblockcount would be answered from the tracked head (README, Cache), and these tests watch the node's own answers.
    proxy = await platform.startProxy({ PROXY_UPSTREAM_TIMEOUT_MS: '20000', PROXY_CACHE_BYTES: '0' });
    user = await platform.user();
    node = await platform.createNode(user, { image: 'ltc' });
  }, 120_000);
  afterAll(async () => {
    await platform?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const rpc = (id: string, method: string, params: unknown[] = []) =>
    callProxy(proxy, 'ltc', { host: node.address, auth: `${node.nodeUser}:${node.nodePass}`, body: { jsonrpc: '1.0', id, method, params } });

  /** A call straight to the node (as the proxy logs in), past the proxy: to keep it busy, or to grow its chain. */
  async function direct(method: string, params: unknown[]): Promise<number> {
    const status = await platform.nodes.service.driver.status(node.id);
    if (status.state !== 'running') throw new Error(`the node is ${status.state}`);
    const body = JSON.stringify({ jsonrpc: '1.0', id: 'direct', method, params });
    return new Promise((resolve, reject) => {
      const req = request(
        status.endpoint.url,
        { method: 'POST', headers: { authorization: nodeRpcAuthorization(platform.rpcKey, node.id), 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  const nodeState = async () =>
    ((await platform.nodes.http.get(`/users/me/nodes/${node.id}`).set(bearer(user.clientToken)).expect(200)).body as { state: string }).state;

  /** What a caller may get from a node busy or warming up: its answer, or 503 + Retry-After with a JSON-RPC error in its dialect. */
  function expectResultOrUnavailable(answer: ProxyAnswer, id: string): void {
    if (answer.status === 200) return expect(answer.body).toMatchObject({ error: null, id });
    expect({ status: answer.status, retryAfter: answer.headers['retry-after'], type: answer.headers['content-type'], body: answer.body }).toEqual({
      status: 503,
      retryAfter: '1',
      type: 'application/json',
      body: { result: null, error: { code: expect.any(Number), message: expect.any(String) }, id },
    });
  }

  it('answers 503 + Retry-After with a JSON-RPC error while its work queue is full, never its HTML page', async () => {
    // Two calls that wait hold the one thread and the one queue place; the rest find the queue full.
    const holds = [direct('waitforblockheight', [1_000_000, 2000]), direct('waitforblockheight', [1_000_000, 2000])];
    const answers = await Promise.all(Array.from({ length: 8 }, (_, n) => rpc(`busy-${n}`, 'getblockcount')));
    await Promise.all(holds);
    answers.forEach((answer, n) => expectResultOrUnavailable(answer, `busy-${n}`));
    const busy = answers.filter((answer) => answer.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy[0]!.body).toMatchObject({ error: { code: -32005, message: 'the node is busy and did not take the call; try again in 1 s' } });
    // Busy is not hung: the node is still running, the same process.
    expect(await nodeState()).toBe('running');
    expectResultOrUnavailable(await rpc('after', 'getblockcount'), 'after');
  });

  it("answers -28 (loading, verifying blocks) as 503 + Retry-After in the node's dialect, and the node is syncing, not running, meanwhile", async () => {
    // A chain long enough that verifying it at start takes a while, then a clean stop: its supervisor starts it again.
    expect(await direct('generatetodescriptor', [1000, 'raw(51)'])).toBe(200);
    expect(await direct('stop', [])).toBe(200);
    const warmingUp: ProxyAnswer[] = [];
    const statesWhileWarmingUp = new Set<string>();
    const others: ProxyAnswer[] = [];
    let served = false;
    const deadline = Date.now() + 90_000;
    for (let n = 0; !served && Date.now() < deadline; n += 1) {
      const answer = await rpc(`warm-${n}`, 'getblockcount');
      const error = (answer.body as { error?: { code?: number } | null }).error;
      if (error?.code === -28) {
        warmingUp.push(answer);
        expectResultOrUnavailable(answer, `warm-${n}`);
        statesWhileWarmingUp.add(await nodeState());
      } else {
        others.push(answer);
        served = warmingUp.length > 0 && answer.status === 200;
      }
      await sleep(20);
    }
    expect(warmingUp.length).toBeGreaterThan(0);
    expect(warmingUp[0]!.body).toEqual({ result: null, error: { code: -28, message: expect.stringMatching(/\.\.\.$/) }, id: expect.any(String) });
    // The process is down between its stop and its restart (the proxy says 502 then), and answers otherwise; never a bare 500.
    expect(others.filter((answer) => answer.status === 500)).toEqual([]);
    expect(statesWhileWarmingUp).toContain('syncing');
    await waitUntil('the node to run again', async () => (await nodeState()) === 'running', 30_000, 100);
  }, 180_000);
});

describe('the answer in place of a busy or warming-up node', () => {
  const { bitcoin, ethereum } = loadMethodPolicies(DEFAULT_FILTER_DIR);
  const forwarded = (body: unknown, policy = bitcoin) => {
    const checked = checkRequest(JSON.stringify(body), policy, 100);
    if (checked.outcome !== 'forward') throw new Error('refused whole');
    return checked;
  };
  const busyMessage = 'the node is busy and did not take the call; try again in 1 s';

  it("answers each call of a batch busy, in the node's dialect, with the proxy's refusals in place", () => {
    const checked = forwarded([
      { jsonrpc: '1.0', id: 1, method: 'getblockcount', params: [] },
      { jsonrpc: '1.0', id: 2, method: 'stop', params: [] },
      { jsonrpc: '1.0', id: 3, method: 'getbestblockhash', params: [] },
    ]);
    const answer = unavailableAnswer(checked, bitcoin.dialect, 500, Buffer.from('Work queue depth exceeded'));
    expect(answer).toMatchObject({ status: 503, headers: { 'retry-after': '1', 'content-type': 'application/json' } });
    expect(JSON.parse(answer!.text)).toEqual([
      { result: null, error: { code: -32005, message: busyMessage }, id: 1 },
      { result: null, error: platformRefusal('stop'), id: 2 },
      { result: null, error: { code: -32005, message: busyMessage }, id: 3 },
    ]);
  });

  it("answers any node's 503 busy in JSON-RPC 2.0 for an ethereum node, and passes other errors on as the node gave them", () => {
    const checked = forwarded({ jsonrpc: '2.0', id: 'a', method: 'eth_blockNumber', params: [] }, ethereum);
    expect(JSON.parse(unavailableAnswer(checked, ethereum.dialect, 503, Buffer.from('<html>overloaded</html>'))!.text)).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      error: { code: -32005, message: busyMessage },
    });
    const ltc = forwarded({ jsonrpc: '1.0', id: 'b', method: 'getblockhash', params: [99] });
    expect(
      unavailableAnswer(ltc, bitcoin.dialect, 500, Buffer.from('{"result":null,"error":{"code":-8,"message":"Block height out of range"},"id":"b"}')),
    ).toBeUndefined();
    const warmup = '{"result":null,"error":{"code":-28,"message":"Loading block index..."},"id":"b"}';
    expect(unavailableAnswer(ltc, bitcoin.dialect, 500, Buffer.from(warmup))).toEqual({
      status: 503,
      headers: { 'content-type': 'application/json', 'retry-after': '1' },
      text: warmup,
    });
    expect([mayBeUnavailable('bitcoin', 500), mayBeUnavailable('ethereum', 500), mayBeUnavailable('ethereum', 503), mayBeUnavailable('bitcoin', 200)]).toEqual([
      true,
      false,
      true,
      false,
    ]);
  });
});
