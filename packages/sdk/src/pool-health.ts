// A pool's members in words: which of them can take the pool's calls, by the rule the proxy
// applies (running, not syncing, within the pool's maxLagBlocks of the best member's head), read
// from the pool record. Pure and browser-safe: the CLI prints it and the web console shows it
// (`@cloud/sdk/browser`). The record's heights are the nodes service's last sync readings (taken
// every few seconds), so this is the pool as of then; the proxy reads heads itself, every second.

/** What a pool member's record says of it (a pool record's `members`). */
export interface PoolMemberReading {
  nodeId: string;
  name: string | null;
  state: string;
  sync: { height: number | null; syncing: boolean } | null;
}

export interface MemberHealth {
  nodeId: string;
  /** Whether the member can take the pool's calls, as of its last reading. */
  serves: boolean;
  /** `serves calls`, `syncing`, `stopped`, `7 blocks behind (more than 5)`, `no reading yet`. */
  words: string;
  /** How many blocks it is below the best member's height; null without a height. */
  behind: number | null;
}

export interface PoolHealth {
  members: MemberHealth[];
  /** How many members can take calls. */
  serving: number;
  /** `2 of 3 members serve calls`, `no member serves calls`, `no members`. */
  words: string;
}

/** The health of each member of a pool, and of the pool. */
export function poolHealth(pool: { members: readonly PoolMemberReading[]; maxLagBlocks: number }): PoolHealth {
  const heights = pool.members.flatMap((member) => {
    const height = member.sync?.height ?? null;
    return member.state === 'running' && height !== null ? [height] : [];
  });
  const best = heights.length > 0 ? Math.max(...heights) : null;
  const members = pool.members.map((member) => memberHealth(member, best, pool.maxLagBlocks));
  const serving = members.filter((member) => member.serves).length;
  return { members, serving, words: poolWords(serving, members.length) };
}

function memberHealth(member: PoolMemberReading, best: number | null, maxLagBlocks: number): MemberHealth {
  const height = member.sync?.height ?? null;
  const behind = best !== null && height !== null ? Math.max(0, best - height) : null;
  const said = (serves: boolean, words: string): MemberHealth => ({ nodeId: member.nodeId, serves, words, behind });
  if (member.state !== 'running') return said(false, member.state === 'syncing' ? 'syncing' : member.state);
  if (!member.sync) return said(false, 'no reading yet');
  if (member.sync.syncing) return said(false, 'syncing');
  if (behind !== null && behind > maxLagBlocks) return said(false, `${behind} blocks behind (more than ${maxLagBlocks})`);
  return said(true, 'serves calls');
}

function poolWords(serving: number, of: number): string {
  if (of === 0) return 'no members';
  if (serving === 0) return 'no member serves calls';
  return `${serving} of ${of} ${of === 1 ? 'member serves' : 'members serve'} calls`;
}
