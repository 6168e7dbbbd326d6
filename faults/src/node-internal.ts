// A hosted node as the nodes service's local driver runs it: its process (node.json under the
// nodes folder names its pid and RPC port) and its RPC reached straight, logged in as the proxy
// is. How the experiments break one node (SIGKILL its process) or change its chain (mine, reorg)
// without the platform's API, which offers neither.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { call } from './http';
import type { Platform } from './platform';

export interface NodeRecord {
  rpcPort: number;
  /** The running process; absent while none runs. */
  pid?: number;
}

/** The node's node.json as the local driver last wrote it; undefined when there is none yet. */
export function nodeRecord(platform: Platform, nodeId: string): NodeRecord | undefined {
  try {
    return JSON.parse(readFileSync(path.join(platform.nodesDir, nodeId, 'node.json'), 'utf8')) as NodeRecord;
  } catch {
    return undefined;
  }
}

/** Basic login of the proxy at the node: `cloud-proxy` and the HMAC-SHA256 of its id under the shared key, as @cloud/node-rpc-auth derives it. */
export function internalLogin(platform: Platform, nodeId: string): string {
  const key = readFileSync(path.join(platform.dataDir, 'keys', 'node-rpc.key'));
  return `Basic ${Buffer.from(`cloud-proxy:${createHmac('sha256', key).update(nodeId).digest('hex')}`).toString('base64')}`;
}

/** One call straight to the node's RPC (not through the proxy); its `result`, or throws with what came instead. */
export async function internalRpc<T = unknown>(platform: Platform, nodeId: string, method: string, params: unknown[] = [], timeoutMs = 10_000): Promise<T> {
  const record = nodeRecord(platform, nodeId);
  if (!record) throw new Error(`node ${nodeId} has no node.json`);
  const answer = await call('POST', `http://127.0.0.1:${record.rpcPort}/`, {
    headers: { authorization: internalLogin(platform, nodeId) },
    body: { jsonrpc: '2.0', id: method, method, params },
    timeoutMs,
  });
  let body: { result?: T; error?: unknown } | undefined;
  try {
    body = JSON.parse(answer.body) as typeof body;
  } catch {
    // not JSON: reported below
  }
  if (!body || (body.error !== undefined && body.error !== null) || !('result' in body))
    throw new Error(`${method} on ${nodeId}: ${answer.status || answer.error} ${answer.body.slice(0, 200)}`);
  return body.result as T;
}

/** Whether `pid` is a process started for this node (its command line names the node's folder): never kill a reused pid. */
function runsForNode(platform: Platform, nodeId: string, pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(path.join(platform.nodesDir, nodeId) + path.sep);
  } catch {
    return false;
  }
}

/** SIGKILLs the node's process (what a crash or an out-of-memory kill does); the pid it killed. */
export function killNodeProcess(platform: Platform, nodeId: string): number {
  const pid = nodeRecord(platform, nodeId)?.pid;
  if (pid === undefined || !runsForNode(platform, nodeId, pid)) throw new Error(`node ${nodeId} has no process running to kill`);
  process.kill(pid, 'SIGKILL');
  return pid;
}

/** The node's pid when a process of it runs (it may be a new one after a restart). */
export function runningPid(platform: Platform, nodeId: string): number | undefined {
  const pid = nodeRecord(platform, nodeId)?.pid;
  return pid !== undefined && runsForNode(platform, nodeId, pid) ? pid : undefined;
}
