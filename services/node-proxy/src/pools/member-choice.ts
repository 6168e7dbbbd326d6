import type { HeadTracker } from '../heads/head-tracker';
import type { Route, RouteTable } from '../routing/route-table';

/**
 * Which member of a pool takes a call. A member may serve when its route is in the table as
 * `running` (not syncing, stopped, …), the circuit breaker has not benched it, and its head is
 * known and at most the pool's `maxLagBlocks` below the best head among the members that may
 * serve. Among those, the one with the fewest calls in flight (from this process), taking turns
 * when several have as few, so sequential calls go round the members and a slow member gets fewer.
 */
export class MemberChoice {
  private readonly inFlight = new Map<string, number>();
  private turn = 0;

  constructor(private readonly options: { table: RouteTable; heads: HeadTracker }) {}

  /** The members of `pool` that may serve a call now. */
  eligible(pool: Route): Route[] {
    const { table, heads } = this.options;
    const best = heads.bestOf(pool);
    if (!best || !pool.pool) return [];
    const lowest = best.height - pool.pool.maxLagBlocks;
    const members: Route[] = [];
    for (const id of pool.pool.members) {
      const head = heads.known(id);
      if (head && head.height >= lowest && heads.mayServe(id)) members.push(table.get(id)!);
    }
    return members;
  }

  /** The member to send a call to; undefined when none may serve. */
  choose(pool: Route): Route | undefined {
    return this.pick(this.eligible(pool), this.turn++);
  }

  /** Another member to retry a call on, leaving out those in `tried` (and taking no turn: the next call's first choice stays the next member's). */
  another(pool: Route, tried: ReadonlySet<string>): Route | undefined {
    return this.pick(
      this.eligible(pool).filter((member) => !tried.has(member.nodeId)),
      this.turn,
    );
  }

  private pick(members: Route[], turn: number): Route | undefined {
    if (members.length === 0) return undefined;
    const start = turn % members.length;
    let chosen = members[start]!;
    for (let step = 1; step < members.length; step += 1) {
      const member = members[(start + step) % members.length]!;
      if (this.load(member.nodeId) < this.load(chosen.nodeId)) chosen = member;
    }
    return chosen;
  }

  /** A call goes to the member (`+1`) or is over (`-1`). */
  track(nodeId: string, change: 1 | -1): void {
    const load = this.load(nodeId) + change;
    if (load === 0) this.inFlight.delete(nodeId);
    else this.inFlight.set(nodeId, load);
  }

  private load(nodeId: string): number {
    return this.inFlight.get(nodeId) ?? 0;
  }
}
