import type { UsageOutcome } from '@cloud/bus';

/** Where each outcome's calls are kept in a tally's counts (the order of USAGE_OUTCOMES). */
export const OUTCOME_INDEX: Record<UsageOutcome, number> = { ok: 0, node_error: 1, refused: 2, rate_limited: 3, unauthorized: 4 };

/** Calls by outcome, indexed as OUTCOME_INDEX. */
export type OutcomeCounts = number[];

/** Adds `calls` calls of `key` that ended as `outcome` to `byKey`. */
export function addCalls(byKey: Map<string, OutcomeCounts>, key: string, outcome: UsageOutcome, calls: number): void {
  let outcomes = byKey.get(key);
  if (!outcomes) {
    outcomes = [0, 0, 0, 0, 0];
    byKey.set(key, outcomes);
  }
  outcomes[OUTCOME_INDEX[outcome]]! += calls;
}

/** Adds the calls of `key` in `outcomes` (by outcome) to `byKey`. */
export function addCounts(byKey: Map<string, OutcomeCounts>, key: string, outcomes: OutcomeCounts): void {
  const into = byKey.get(key);
  if (!into) {
    byKey.set(key, [...outcomes]);
    return;
  }
  for (let index = 0; index < into.length; index++) into[index]! += outcomes[index]!;
}

/**
 * One request's calls by method bucket and outcome, counted while it is served and booked to usage
 * once, at its end (`UsageMeter.book`), in the order they were first counted. Most requests count
 * one bucket: it is kept apart, and a Map made only for a second.
 */
export class CallTally {
  private method: string | undefined;
  private counts: OutcomeCounts = [0, 0, 0, 0, 0];
  private others: Map<string, OutcomeCounts> | undefined;

  count(method: string, outcome: UsageOutcome, calls = 1): void {
    if (calls <= 0) return;
    if (this.method === undefined || this.method === method) {
      this.method = method;
      this.counts[OUTCOME_INDEX[outcome]]! += calls;
    } else {
      addCalls((this.others ??= new Map()), method, outcome, calls);
    }
  }

  /** Whether nothing was counted. */
  get empty(): boolean {
    return this.method === undefined;
  }

  /** Each method bucket counted, with its calls by outcome, the first counted first. */
  forEach(each: (method: string, outcomes: OutcomeCounts) => void): void {
    if (this.method === undefined) return;
    each(this.method, this.counts);
    this.others?.forEach((outcomes, method) => each(method, outcomes));
  }
}
