// Issue 29, item 6: a clean restart of the nodes service (SIGTERM, then start: an upgrade or a
// configuration change) must leave every hosted node running as it was: the same processes,
// adopted by the restarted service, and not one proxied call failed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { seconds, underLoad, type Context, type ExperimentResult } from '../experiments';
import { waitFor } from '../shell';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid each load user's node.json names (undefined when it names none). */
function nodePids(ctx: Context): Map<string, number | undefined> {
  return new Map(
    ctx.users.map((user) => {
      try {
        const record = JSON.parse(readFileSync(path.join(ctx.platform.nodesDir, user.nodeId, 'node.json'), 'utf8')) as { pid?: number };
        return [user.nodeId, record.pid];
      } catch {
        return [user.nodeId, undefined];
      }
    }),
  );
}

export function nodesRestart(ctx: Context): Promise<ExperimentResult> {
  const nodes = ctx.platform.services.nodes;
  return underLoad(ctx, 'nodes-restart', 'nodes service stopped (SIGTERM) and started again under load', async () => {
    const failures: string[] = [];
    const notes: string[] = [];
    const before = nodePids(ctx);
    const stoppedAt = Date.now();
    await nodes.stop('SIGTERM');
    nodes.start();
    const listenedAt = await nodes.listening();
    await waitFor('the nodes service to be ready', () => nodes.ready(), 30_000).catch(() =>
      failures.push('the nodes service was not ready within 30 s of its start'),
    );
    const endedAt = Date.now();
    notes.push(`stopped and listening again in ${seconds(listenedAt - stoppedAt)}, ready ${seconds(endedAt - listenedAt)} after`);
    return {
      endedAt,
      check(load) {
        // Seconds later: adopted, not restarted, each node's process is the one it had before the stop.
        const after = nodePids(ctx);
        const replaced = [...before].filter(([id, pid]) => pid === undefined || after.get(id) !== pid || !isAlive(pid));
        notes.push(`node pids before ${[...before.values()].join(', ')}; after ${[...after.values()].join(', ')}`);
        if (replaced.length > 0) failures.push(`${replaced.length} of ${before.size} node processes replaced by the restart`);
        const failed = load.rpc.filter((r) => !r.ok);
        if (failed.length > 0)
          failures.push(
            `${failed.length} of ${load.rpc.length} proxied RPC calls failed, from +${seconds(failed[0]!.at - stoppedAt)} to +${seconds(failed[failed.length - 1]!.at - stoppedAt)} after the stop`,
          );
        return { failures, notes };
      },
    };
  });
}
