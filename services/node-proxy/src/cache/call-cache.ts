import { performance } from 'node:perf_hooks';
import type { Call } from '../json-rpc/json-rpc';
import { stringifyJson } from '../json-rpc/json-text';
import type { Family } from '../routing/interfaces';
import type { Route } from '../routing/route-table';
import { AnswerCache, type AnswerCacheEvents, type CachedAnswer } from './answer-cache';
import { CACHE_RULES, cacheKey, confirmationsSpan, finalityDepth, isFinal, withConfirmations, type CacheRule, type FinalityDepths } from './cache-rules';
import type { Head, HeadSource } from './head-source';
import { InFlight } from './in-flight';
import { findMembers } from './json-members';

/** What the cache makes of a call it has a rule for. */
export type CachePlan =
  /** Answered from the tracked head: `result` is the answer's result JSON. */
  | { kind: 'head'; family: Family; result: string }
  /** An answer that may be kept: looked up by `key`, else asked of the node once and kept when the rule says. */
  | {
      kind: 'kept';
      family: Family;
      key: string;
      route: Route;
      rule: Exclude<CacheRule, { keep: 'head' }>;
      /** The block the params name (checked final already), `answer` when the answer tells, undefined for `forever`. */
      height: number | 'answer' | undefined;
      depth: number;
      /** The endpoint's reorgs seen when the call was planned: an answer read before a reorg is not kept after it. */
      reorgs: number;
    };

export type KeptPlan = CachePlan & { kind: 'kept' };

/** A block as its header tells it: where it is and how deep (`confirmations`, -1 when off the node's best chain). */
export interface BlockPlace {
  height: number;
  confirmations: number;
}

/** The cache's counters, by family: metrics.ts keeps them. */
export interface CacheCounters extends AnswerCacheEvents {
  hit(family: Family): void;
  miss(family: Family): void;
  merged(family: Family): void;
}

export interface CallCacheOptions extends FinalityDepths {
  PROXY_CACHE_BYTES: number;
  PROXY_HEAD_INTERVAL_MS: number;
  heads: HeadSource;
  counters: CacheCounters;
  now?: () => number;
}

/**
 * The finality-aware answer cache of every endpoint (a node, or a pool: keys are scoped by the
 * route's id): which calls it may answer (`plan`, a method lookup first, so other calls cost
 * nothing more), what it holds for them (`lookup`), the node's answers it keeps (`keep`), identical
 * calls in flight at once sent once (`inFlight`), and reorgs dropping what they changed.
 */
export class CallCache {
  readonly answers: AnswerCache;
  readonly inFlight = new InFlight();
  readonly counters: CacheCounters;
  private readonly now: () => number;
  /** Reorgs seen per endpoint (and dev-layer calls made on it). */
  private readonly reorgs = new Map<string, number>();
  /** Dev endpoints whose head is not used until then (performance.now()): a dev-layer call may have changed their chain. */
  private readonly untrustedUntil = new Map<string, number>();

  constructor(private readonly options: CallCacheOptions) {
    this.counters = options.counters;
    this.answers = new AnswerCache(options.PROXY_CACHE_BYTES, options.counters);
    this.now = options.now ?? Date.now;
    options.heads.onReorg((routeId, forkHeight) => {
      this.reorgs.set(routeId, (this.reorgs.get(routeId) ?? 0) + 1);
      this.answers.dropFrom(routeId, forkHeight);
    });
  }

  /**
   * How the cache may serve `call`, or undefined when it
   * cannot: no rule for the method, a notification, a block that is not final (or `latest`), or
   * no head known for a rule that needs one.
   */
  plan(route: Route, call: Call & { method: string }, lossless: boolean): CachePlan | undefined {
    const { family } = route.interfaces;
    const rule = CACHE_RULES[family].get(call.method);
    if (rule === undefined || !('id' in call) || (call.params !== undefined && !Array.isArray(call.params))) return undefined;
    if (rule.keep === 'head') {
      const head = this.freshHead(route);
      return head && { kind: 'head', family, result: rule.answerFromHead(head) };
    }
    const params = (call.params ?? []) as unknown[];
    const depth = finalityDepth(this.options, family, route.dev);
    let height: number | 'answer' | undefined;
    if (rule.keep === 'final') {
      height = rule.heightInParams?.(params);
      if (height === undefined) return undefined;
      if (height !== 'answer') {
        const head = this.trustedHead(route);
        if (!head || !isFinal(height, head, depth)) return undefined;
      }
    }
    const paramsText = call.params === undefined ? '' : stringifyJson(call.params, lossless);
    return {
      kind: 'kept',
      family,
      key: cacheKey(route.nodeId, family, call.method, paramsText),
      route,
      rule,
      height,
      depth,
      reorgs: this.reorgs.get(route.nodeId) ?? 0,
    };
  }

  /** The kept result for `plan` as it is to be served now, or undefined (not kept, or its confirmations cannot be told now). */
  lookup(plan: KeptPlan): string | undefined {
    const kept = this.answers.get(plan.key);
    if (!kept) return undefined;
    if (!kept.confirmations) return kept.result;
    const head = this.freshHead(plan.route);
    if (!head || kept.height === undefined || head.height < kept.height) return undefined;
    return withConfirmations(kept.result, kept.confirmations, kept.height, head);
  }

  /**
   * The `result` of a node's answer (its whole text, HTTP 200) when it is a success, as the node
   * wrote it; undefined for an error or anything else.
   */
  resultOf(text: string): string | undefined {
    const members = findMembers(text, ['result', 'error']);
    const result = members.get('result');
    const error = members.get('error');
    if (!result || (error && text.slice(error.start, error.end) !== 'null')) return undefined;
    return text.slice(result.start, result.end);
  }

  /**
   * Keeps a node's successful `result` for `plan` when its rule says it cannot change: its block
   * final under the tracked head (and, for a Bitcoin answer, under the node's own count of
   * confirmations). `placeOf` finds the block of a transaction that names only its hash.
   */
  async keep(plan: KeptPlan, result: string, placeOf: (blockHash: string) => Promise<BlockPlace | undefined>): Promise<boolean> {
    if (result === 'null') return false;
    const { rule } = plan;
    if (rule.keep === 'forever') return this.store(plan, { endpoint: plan.route.nodeId, result, height: undefined });
    let height = plan.height === 'answer' ? rule.heightInAnswer?.(result) : plan.height;
    const blockHash = height === undefined ? rule.blockHashInAnswer?.(result) : undefined;
    if (blockHash !== undefined) {
      const place = await placeOf(blockHash);
      if (!place || place.confirmations <= plan.depth) return false;
      height = place.height;
    }
    if (height === undefined) return false;
    const head = this.trustedHead(plan.route);
    if (!head || !isFinal(height, head, plan.depth)) return false;
    if (!rule.confirmations) return this.store(plan, { endpoint: plan.route.nodeId, result, height });
    const confirmations = confirmationsSpan(result);
    // The node's own count too: a block off its best chain says -1, and a lagging node fewer.
    if (!confirmations || Number(result.slice(confirmations.start, confirmations.end)) <= plan.depth) return false;
    return this.store(plan, { endpoint: plan.route.nodeId, result, height, confirmations });
  }

  /**
   * A dev-layer call on the endpoint (mining, reverting, reorging by hand on a dev chain): what
   * was kept of its blocks is dropped, an answer at the node meanwhile is not kept, and its head
   * is not used until the tracker had two intervals to read it again, so the caller reads their
   * own change (`eth_blockNumber` right after `evm_mine`). Called before and after the call.
   */
  chainChanging(route: Route): void {
    const endpoint = route.nodeId;
    this.reorgs.set(endpoint, (this.reorgs.get(endpoint) ?? 0) + 1);
    this.answers.dropFrom(endpoint, 0);
    this.untrustedUntil.set(endpoint, performance.now() + 2 * this.options.PROXY_HEAD_INTERVAL_MS);
  }

  /** The route's head when read within two head intervals: fresh enough to answer from or count confirmations by. */
  private freshHead(route: Route): Head | undefined {
    const head = this.trustedHead(route);
    return head && this.now() - head.readAt <= 2 * this.options.PROXY_HEAD_INTERVAL_MS ? head : undefined;
  }

  /** The route's head, unless a dev-layer call may have changed the chain since it was read. */
  private trustedHead(route: Route): Head | undefined {
    const until = this.untrustedUntil.get(route.nodeId);
    if (until !== undefined) {
      // Real time, whatever clock the heads are read by: the tracker's reads come every interval.
      if (performance.now() < until) return undefined;
      this.untrustedUntil.delete(route.nodeId);
    }
    return this.options.heads.headOf(route);
  }

  private store(plan: KeptPlan, answer: CachedAnswer): boolean {
    if ((this.reorgs.get(plan.route.nodeId) ?? 0) !== plan.reorgs) return false;
    this.answers.set(plan.key, answer);
    return true;
  }
}
