import { poolHealth, syncWords, type Pool } from '@cloud/sdk';
import type { Context, NodeCredentials } from '../context';
import { printRecord, printTable } from '../output';
import { linesFor, printReadyLines, readyCredential } from '../ready-lines';

// A pool's record, as `pools create`, `pools info` and `pools update` print it: the pool, where to
// call it, its members with their state and whether each takes calls, and with a credential kept
// on this machine the lines ready to paste.

/** A member as the table shows it: its record, and whether it takes the pool's calls. */
type MemberRow = Pool['members'][number] & { serves: string };

export function printPool(ctx: Context, pool: Pool, kept?: NodeCredentials): void {
  const { endpoints } = pool;
  const health = poolHealth(pool);
  printRecord(ctx.output, [
    ['Id', pool.id],
    ['Name', pool.name],
    ['Image', pool.image],
    ['Network', pool.networkLabel],
    ['Max lag', `${pool.maxLagBlocks} blocks behind the best member's head`],
    ['Health', health.words],
    ['JSON-RPC', endpoints.jsonRpc],
    ['REST', endpoints.rest],
    ['WebSocket', endpoints.webSocket],
    ['Plain HTTP (loopback)', endpoints.plain?.jsonRpc],
    ['Plain REST (loopback)', endpoints.plain?.rest],
    ['Plain WebSocket (loopback)', endpoints.plain?.webSocket],
    ['Authentication', "Basic: the pool's own user and password (not a member's)"],
    ['Pool user', pool.nodeUser],
    ['Pool password', pool.nodePass],
    ['Created', pool.createdAt],
  ]);
  ctx.output.out.write('\nMembers:\n');
  const rows: MemberRow[] = pool.members.map((member, index) => ({ ...member, serves: health.members[index]!.words }));
  printTable<MemberRow>(
    ctx.output,
    rows,
    [
      { key: 'nodeId', header: 'NODE' },
      { key: 'name', header: 'NAME' },
      { key: 'state', header: 'STATE' },
      { key: 'sync', header: 'SYNC', format: (_sync, member) => syncWords({ ...member, image: pool.image, dev: pool.dev, createdAt: pool.createdAt }).text },
      { key: 'serves', header: 'CALLS' },
    ],
    'No members: its nodes were deleted. Add some with: cloud pools update <pool> --member <node>',
  );
  const credential = readyCredential(pool, kept);
  if (credential) printReadyLines(ctx, linesFor(ctx, pool, credential));
}
