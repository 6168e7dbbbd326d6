// What the platform holds after an experiment: the call events of the load's calls (by request
// id), outbox rows not yet relayed, dead letters, and the processes of every hosted node.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ApiResult, Load, RpcResult } from './load';
import type { OwnPostgres } from './postgres';
import type { OwnRabbitMq } from './rabbitmq';
import { sleep } from './shell';

export interface EventAudit {
  /** Calls the load got a 2xx for: each must have exactly one stored event. */
  successful: number;
  stored: number;
  lost: number;
  /** The lost ones by the service that answered them. */
  lostByService: Record<string, number>;
  /** The calls whose events were lost. */
  lostCalls: ApiResult[];
  /** Of the lost, those inside an experiment's documented loss window (see FaultOutcome.inLossWindow). */
  lostInWindow?: number;
  /** Request ids (of any call of this experiment) with more than one stored event. */
  doubled: number;
}

async function outboxRows(db: OwnPostgres): Promise<number> {
  const tables = await db.query("SELECT table_schema FROM information_schema.tables WHERE table_name = 'outbox'");
  if (tables.length === 0) return 0;
  const rows = await db.query(tables.map(([schema]) => `SELECT count(*) FROM "${schema}".outbox`).join(' UNION ALL '));
  return rows.reduce((sum, [count]) => sum + Number(count), 0);
}

async function storedByRequest(db: OwnPostgres, prefix: string): Promise<Map<string, number>> {
  const rows = await db.query(`SELECT service_data->>'requestId', count(*) FROM accounts.events WHERE service_data->>'requestId' LIKE '${prefix}%' GROUP BY 1`);
  return new Map(rows.map(([id, count]) => [id ?? '', Number(count)]));
}

/**
 * Waits until the outboxes are empty and the stored events stopped changing (the bus delivered
 * what it had), at most `timeoutMs`; then the rows left in the outboxes are stuck.
 */
export async function settle(db: OwnPostgres, load: Load, timeoutMs: number): Promise<{ stuckOutboxRows: number; events: EventAudit }> {
  const deadline = Date.now() + timeoutMs;
  const successful = load.api.filter((r) => r.status >= 200 && r.status < 300);
  let previous = -1;
  let stored: Map<string, number>;
  let outbox: number;
  for (;;) {
    [outbox, stored] = await Promise.all([outboxRows(db), storedByRequest(db, load.prefix)]);
    const total = [...stored.values()].reduce((a, b) => a + b, 0);
    // Empty outboxes are not enough: relayed events may wait in the broker's queue until the
    // consumer (accounts) is back, which reconnects on its own backoff. Until every successful
    // call's event is in, wait for the deadline; then one more second without change.
    const missing = successful.some((r) => !stored.has(r.requestId));
    if ((outbox === 0 && !missing && total === previous) || Date.now() > deadline) break;
    previous = total;
    await sleep(1000);
  }
  const lostByService: Record<string, number> = {};
  for (const r of successful) if (!stored.has(r.requestId)) lostByService[r.service] = (lostByService[r.service] ?? 0) + 1;
  const storedOk = successful.filter((r) => stored.has(r.requestId)).length;
  return {
    stuckOutboxRows: outbox,
    events: {
      successful: successful.length,
      stored: storedOk,
      lost: successful.length - storedOk,
      lostByService,
      lostCalls: successful.filter((r) => !stored.has(r.requestId)),
      doubled: [...stored.values()].filter((count) => count > 1).length,
    },
  };
}

export async function deadLetters(broker: OwnRabbitMq): Promise<number> {
  const counts = await broker.deadLetters();
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

export interface NodeAudit {
  nodeId: string;
  state: string;
  owner: string;
  /** Processes whose command line names the node's folder. */
  processes: number;
}

/** Every node row with its owner, and how many processes run for it on this machine. */
export async function auditNodes(db: OwnPostgres, nodesDir: string): Promise<NodeAudit[]> {
  const rows = await db.query("SELECT id, state, coalesce(owner, '') FROM nodes.nodes ORDER BY id");
  const commandLines: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      commandLines.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '));
    } catch {
      // gone meanwhile
    }
  }
  return rows.map(([nodeId = '', state = '', owner = '']) => {
    const dir = path.join(nodesDir, nodeId) + path.sep;
    return { nodeId, state, owner, processes: commandLines.filter((line) => line.includes(dir)).length };
  });
}

/** Node problems: a running node with no process or no owner (orphaned), or with two (run twice). */
export function nodeProblems(nodes: readonly NodeAudit[], liveOwners: readonly string[]): string[] {
  const problems: string[] = [];
  for (const node of nodes) {
    if (node.processes > 1) problems.push(`${node.nodeId} runs ${node.processes} times`);
    if (node.state === 'running' && node.processes === 0) problems.push(`${node.nodeId} is running but has no process`);
    if (node.state === 'running' && !liveOwners.includes(node.owner)) problems.push(`${node.nodeId} is owned by "${node.owner}", no live instance`);
  }
  return problems;
}

/**
 * Waits up to `timeoutMs` for every node to be driven by one of `liveOwners` with exactly one
 * process (a takeover restarts processes after the lease ends and a reconcile round); the problems
 * left then, and how long it took.
 */
export async function nodesSettled(
  db: OwnPostgres,
  nodesDir: string,
  liveOwners: readonly string[],
  timeoutMs: number,
): Promise<{ problems: string[]; ms: number }> {
  const start = Date.now();
  for (;;) {
    const problems = nodeProblems(await auditNodes(db, nodesDir), liveOwners);
    if (problems.length === 0 || Date.now() - start > timeoutMs) return { problems, ms: Date.now() - start };
    await sleep(250);
  }
}

/** The proxied calls the usage tables count for each node (minute buckets, every outcome). */
export async function usageCalls(db: OwnPostgres): Promise<Map<string, number>> {
  const rows = await db.query("SELECT node_id, sum(calls) FROM nodes.usage_calls WHERE granularity = 'minute' GROUP BY node_id");
  return new Map(rows.map(([nodeId, calls]) => [nodeId ?? '', Number(calls)]));
}

/** The usage counts once two reads `quietMs` apart agree (what the proxy had not reported yet is in). */
export async function quietUsage(db: OwnPostgres, quietMs: number, timeoutMs: number): Promise<Map<string, number>> {
  const deadline = Date.now() + timeoutMs;
  let previous = await usageCalls(db);
  for (;;) {
    await sleep(quietMs);
    const now = await usageCalls(db);
    if ([...now].every(([node, calls]) => previous.get(node) === calls) || Date.now() > deadline) return now;
    previous = now;
  }
}

export interface UsageAudit {
  /** Proxied calls the load made, and those the usage counts since `before`. */
  made: number;
  counted: number;
  /** Calls made and not counted, and counted beyond those made, summed over the nodes. */
  lost: number;
  extra: number;
  /** Each node whose count differs from its calls. */
  differences: string[];
}

/** The calls counted for each node between `before` and `after`, against the proxied calls `calls` made to it. */
export function compareUsage(before: Map<string, number>, after: Map<string, number>, calls: readonly RpcResult[]): UsageAudit {
  const made = new Map<string, number>();
  for (const call of calls) made.set(call.nodeId, (made.get(call.nodeId) ?? 0) + 1);
  const audit: UsageAudit = { made: calls.length, counted: 0, lost: 0, extra: 0, differences: [] };
  for (const [node, n] of made) {
    const counted = (after.get(node) ?? 0) - (before.get(node) ?? 0);
    audit.counted += counted;
    audit.lost += Math.max(0, n - counted);
    audit.extra += Math.max(0, counted - n);
    if (counted !== n) audit.differences.push(`node ${node}: usage counts ${counted} of its ${n} proxied calls`);
  }
  return audit;
}
