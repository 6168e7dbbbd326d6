import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '@cloud/logging';
import { nodeRpcAuthorization } from '@cloud/node-rpc-auth';
import type { InternalEndpoint, NodeDriver } from '../src/domain/node-driver';
import type { LocalDriverOptions } from '../src/drivers/local';

export interface RpcAnswer {
  status: number;
  result?: unknown;
  error?: unknown;
}

/** A node's RPC as a test calls it: a URL and, unless left out, an `Authorization` header. */
export interface NodeRpc extends InternalEndpoint {
  authorization?: string;
}

/** The key of the drivers of testDriverOptions. */
export const TEST_RPC_KEY = randomBytes(32);

/** The node's RPC as the node-proxy reaches it: the driver's endpoint, logged in with the credentials it derives from the key. */
export function asProxy(endpoint: InternalEndpoint, key: Buffer, nodeId: string): NodeRpc {
  return { url: endpoint.url, authorization: nodeRpcAuthorization(key, nodeId) };
}

/** A JSON-RPC call to a node. */
export async function jsonRpc(rpc: NodeRpc, method: string, params: unknown[] = []): Promise<RpcAnswer> {
  const response = await fetch(rpc.url, {
    method: 'POST',
    headers: { ...(rpc.authorization ? { authorization: rpc.authorization } : {}), 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const text = await response.text();
  const body = text === '' ? {} : (JSON.parse(text) as { result?: unknown; error?: unknown });
  return { status: response.status, result: body.result, error: body.error ?? undefined };
}

/** The chain's height, by `getblockcount` or `eth_blockNumber`; throws unless the node answers one. */
export async function blockHeight(rpc: NodeRpc, family: 'bitcoin' | 'ethereum'): Promise<number> {
  const answer = await jsonRpc(rpc, family === 'bitcoin' ? 'getblockcount' : 'eth_blockNumber');
  if (family === 'bitcoin' && typeof answer.result === 'number') return answer.result;
  if (family === 'ethereum' && typeof answer.result === 'string' && /^0x[0-9a-f]+$/.test(answer.result)) return Number(answer.result);
  throw new Error(`not a block height: ${JSON.stringify(answer)}`);
}

/** Polls `check` until it returns something other than undefined; throws after `timeoutMs`, or what `check` throws. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * Waits until a driver of testDriverOptions reports the node `running`, and returns its RPC as
 * the proxy reaches it; throws once it is `failed`.
 */
export async function runningEndpoint(driver: NodeDriver, nodeId: string): Promise<NodeRpc> {
  const endpoint = await waitFor(`${nodeId} to run`, async () => {
    const status = await driver.status(nodeId);
    if (status.state === 'failed') throw new Error(`${nodeId} failed: ${status.reason}`);
    return status.state === 'running' ? status.endpoint : undefined;
  });
  return asProxy(endpoint, TEST_RPC_KEY, nodeId);
}

/** A local driver's options for tests: a block a second, quiet, TEST_RPC_KEY, quick to stop. */
export function testDriverOptions(rootDir: string, overrides: Partial<LocalDriverOptions> = {}): LocalDriverOptions {
  return {
    rootDir,
    secretKey: TEST_RPC_KEY,
    logger: createLogger({ service: 'nodes-test', level: 'silent' }),
    blockIntervalSeconds: 1,
    ethChainId: 31337,
    binaries: {},
    stopTimeoutMs: 5000,
    ...overrides,
  };
}

/** The pid the local driver recorded for the node (its `node.json`). */
export async function recordedPid(rootDir: string, nodeId: string): Promise<number> {
  const record = JSON.parse(await readFile(path.join(rootDir, nodeId, 'node.json'), 'utf8')) as { pid: number };
  return record.pid;
}

/** Kills the node's process as a crash would, and waits until the driver has restarted it: a new process, answering again. */
export async function crashAndAwaitRestart(
  driver: NodeDriver,
  rootDir: string,
  nodeId: string,
): Promise<{ endpoint: NodeRpc; killed: number; restarted: number }> {
  const killed = await recordedPid(rootDir, nodeId);
  process.kill(killed, 'SIGKILL');
  await waitFor('the node to restart', async () => ((await driver.status(nodeId)).state === 'starting' ? true : undefined), 5000);
  const endpoint = await runningEndpoint(driver, nodeId);
  const restarted = await recordedPid(rootDir, nodeId);
  if (restarted === killed) throw new Error(`${nodeId} still has pid ${killed}`);
  return { endpoint, killed, restarted };
}
