// Pools (issue 31) as their owner makes and calls them: two nodes of one image created through the
// nodes API, a pool over them (POST /users/me/pools), and JSON-RPC calls to the pool's endpoint,
// which the proxy routes by the pool's Basic credential and answers with `x-pool-member`.
import { call, expectJson, type Answer } from './http';
import { internalRpc } from './node-internal';
import type { Platform } from './platform';
import { signUp, type Account } from './setup';
import { waitFor } from './shell';

export type PoolFamily = 'ethereum' | 'bitcoin';

export interface Pool {
  id: string;
  family: PoolFamily;
  /** The proxy's port for the pool's chain. */
  url: string;
  auth: string;
  members: string[];
  owner: Account;
}

/** One call through a pool: what came back, parsed, and the member the proxy says served it. */
export interface PoolAnswer {
  answer: Answer;
  /** `result` of a JSON-RPC answer with no error; undefined otherwise. */
  result?: unknown;
  /** Why it is not a result: `no answer (…)`, `HTTP 502`, `JSON-RPC -32000 …`, `not JSON-RPC`. */
  failure?: string;
  member?: string;
}

const IMAGE: Record<PoolFamily, string> = { ethereum: 'eth', bitcoin: 'ltc' };

async function createRunningNode(platform: Platform, owner: Account, family: PoolFamily, name: string): Promise<string> {
  const node = await expectJson<{ id: string }>(
    `${IMAGE[family]} node`,
    call('POST', `${platform.nodesUrl}/users/me/nodes`, { headers: { authorization: `Bearer ${owner.clientToken}` }, body: { image: IMAGE[family], name } }),
  );
  const head = family === 'ethereum' ? 'eth_blockNumber' : 'getblockcount';
  await waitFor(`node ${node.id} to run`, async () => (await nodeState(platform, owner, node.id)) === 'running', 90_000, 250);
  // Its RPC answers, not just its record: the pool's members must serve from the first call.
  await waitFor(`node ${node.id} to answer`, async () => (await internalRpc(platform, node.id, head)) !== undefined, 60_000, 250);
  return node.id;
}

/** The node's state as its owner reads it from the API; undefined when the API did not answer. */
export async function nodeState(platform: Platform, owner: Account, nodeId: string): Promise<string | undefined> {
  const answer = await call('GET', `${platform.nodesUrl}/users/me/nodes/${nodeId}`, { headers: { authorization: `Bearer ${owner.clientToken}` } });
  return answer.status === 200 ? (JSON.parse(answer.body) as { state: string }).state : undefined;
}

/** A new account owning two running nodes of `family` and a pool over them, answering through the proxy. */
export async function createPool(platform: Platform, family: PoolFamily, maxLagBlocks: number): Promise<Pool> {
  const owner = await signUp(platform, `pool-${family}`);
  const members = await Promise.all(['a', 'b'].map((n) => createRunningNode(platform, owner, family, `pool member ${n}`)));
  const created = await expectJson<{ id: string; nodeUser: string; nodePass: string }>(
    `${family} pool`,
    call('POST', `${platform.nodesUrl}/users/me/pools`, {
      headers: { authorization: `Bearer ${owner.clientToken}` },
      body: { name: `faults ${family}`, members, maxLagBlocks },
    }),
  );
  const pool: Pool = {
    id: created.id,
    family,
    url: family === 'ethereum' ? platform.proxyEthUrl : platform.proxyLtcUrl,
    auth: `Basic ${Buffer.from(`${created.nodeUser}:${created.nodePass}`).toString('base64')}`,
    members,
    owner,
  };
  const head = family === 'ethereum' ? 'eth_blockNumber' : 'getblockcount';
  let last: PoolAnswer | undefined;
  await waitFor(`pool ${pool.id} to answer through the proxy`, async () => (last = await callPool(pool, head)).result !== undefined, 30_000, 250).catch(
    (error: Error) => {
      throw new Error(`${error.message}; its last answer: ${last?.failure} ${last?.answer.body.slice(0, 200)}`);
    },
  );
  return pool;
}

/** One JSON-RPC call to the pool's endpoint; never throws (a failure is a result the load counts). */
export async function callPool(pool: Pool, method: string, params: unknown[] = [], timeoutMs = 5_000): Promise<PoolAnswer> {
  const answer = await call('POST', pool.url, {
    headers: { authorization: pool.auth },
    body: { jsonrpc: pool.family === 'ethereum' ? '2.0' : '1.0', id: 1, method, params },
    timeoutMs,
  });
  const header = answer.headers['x-pool-member'];
  const member = typeof header === 'string' ? header : undefined;
  if (answer.status === 0) return { answer, member, failure: `no answer (${answer.error ?? 'unknown'})` };
  let body: { result?: unknown; error?: { code?: unknown; message?: unknown } | null } | undefined;
  try {
    body = JSON.parse(answer.body) as typeof body;
  } catch {
    // not JSON: below
  }
  if (body?.error) return { answer, member, failure: `HTTP ${answer.status} JSON-RPC ${String(body.error.code)} ${String(body.error.message).slice(0, 80)}` };
  if (answer.status !== 200) return { answer, member, failure: `HTTP ${answer.status}` };
  if (!body || !('result' in body)) return { answer, member, failure: 'not JSON-RPC' };
  return { answer, member, result: body.result };
}

/** The pool's usage totals per member, as its owner reads them from the API (issue 31: `members: [{nodeId, calls}]`). */
export async function memberUsage(platform: Platform, pool: Pool): Promise<Map<string, number>> {
  const usage = await expectJson<{ members?: { nodeId: string; calls: number }[] }>(
    'pool usage',
    call('GET', `${platform.nodesUrl}/users/me/pools/${pool.id}/usage`, { headers: { authorization: `Bearer ${pool.owner.clientToken}` } }),
  );
  return new Map((usage.members ?? []).map((m) => [m.nodeId, m.calls]));
}
