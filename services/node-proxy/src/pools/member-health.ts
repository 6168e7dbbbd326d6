import type { Clock } from '@cloud/auth';

interface MemberState {
  /** Failures in a row (calls and head reads). */
  failures: number;
  /** Benched: taken out of its pools until this time has passed and a head read succeeds. */
  benchedUntil: number | undefined;
}

/**
 * The pools' circuit breaker, per member node: `failuresToBench` failures in a row (a call that
 * failed on connection, timeout or 5xx, or a head read that failed) bench it for `benchMs`; after
 * that, the next successful head read brings it back (the head tracker is the probe, so no
 * caller's call is spent on a member that may still be down). A served call ends a streak.
 * Each proxy process keeps its own (workers and replicas bench on what they saw).
 */
export class MemberHealth {
  private readonly members = new Map<string, MemberState>();
  private benched = 0;

  constructor(private readonly options: { failuresToBench: number; benchMs: number; now: Clock }) {}

  /** Members benched now. */
  get benchedCount(): number {
    return this.benched;
  }

  isBenched(nodeId: string): boolean {
    return this.members.get(nodeId)?.benchedUntil !== undefined;
  }

  /** A call to the member failed (connection, timeout, 5xx), or a head read did. */
  failed(nodeId: string): void {
    const state = this.stateOf(nodeId);
    state.failures += 1;
    if (state.benchedUntil === undefined && state.failures >= this.options.failuresToBench) {
      state.benchedUntil = this.options.now() + this.options.benchMs;
      this.benched += 1;
    }
  }

  /** The member answered a call. */
  served(nodeId: string): void {
    const state = this.members.get(nodeId);
    if (state && state.benchedUntil === undefined) state.failures = 0;
  }

  /** A head read of the member succeeded (`ok`) or failed: the probe that brings a benched member back. */
  headRead(nodeId: string, ok: boolean): void {
    if (!ok) return this.failed(nodeId);
    // Not benched: a head read ends no streak, so a member failing calls but answering its head reads is still benched.
    const state = this.members.get(nodeId);
    if (state?.benchedUntil !== undefined && this.options.now() >= state.benchedUntil) {
      state.benchedUntil = undefined;
      state.failures = 0;
      this.benched -= 1;
    }
  }

  /** The node is no pool's member any more, or gone. */
  forget(nodeId: string): void {
    if (this.isBenched(nodeId)) this.benched -= 1;
    this.members.delete(nodeId);
  }

  private stateOf(nodeId: string): MemberState {
    let state = this.members.get(nodeId);
    if (!state) this.members.set(nodeId, (state = { failures: 0, benchedUntil: undefined }));
    return state;
  }
}
