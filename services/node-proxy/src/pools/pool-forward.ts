import type { ServerResponse } from 'node:http';
import { AppError } from '@cloud/http';
import { AnswerTooLargeError } from '../forwarding/answer-limit';
import type { AnswerReview } from '../forwarding/answer-writer';
import { HeldFailureError, UpstreamError } from '../forwarding/upstream-error';
import type { Route } from '../routing/route-table';
import type { CallRecord } from '../server/call-record';
import type { ProxyContext } from '../server/proxy-context';

/** The response header naming the member of a pool that served the call. */
export const POOL_MEMBER_HEADER = 'x-pool-member';

/** How long a caller is asked to wait when no member of a pool may serve (the next head reads may change that). */
export const NO_MEMBER_RETRY_AFTER_SECONDS = 1;

/** No member of the pool may serve now: 503 with Retry-After (JSON-RPC callers get it as a JSON-RPC error). */
export class NoMemberError extends AppError {
  constructor(pool: Route) {
    super(
      503,
      'NoPoolMember',
      `no member of pool ${pool.nodeId} can serve now (none is running, within ${pool.pool?.maxLagBlocks ?? 0} blocks of the best head, and not failing); try again in ${NO_MEMBER_RETRY_AFTER_SECONDS} s`,
      { 'retry-after': String(NO_MEMBER_RETRY_AFTER_SECONDS) },
    );
  }
}

/** One try of a call on a member: the forward to it, judged by `review` (which holds back a 5xx when the call may be retried). */
export type MemberAttempt<T> = (member: Route, review: AnswerReview) => Promise<T>;

/**
 * A call on a pool: sent to a member `context.members` chooses, named in the answer's
 * `x-pool-member` header and in `record.member`. A read that fails on connection, timeout or a 5xx
 * before anything was sent to the caller is tried once more on another member that may serve; to
 * retry a 5xx the first try holds it back (`AnswerReview.refuse`) rather than streaming it, which
 * it does only when another member is there to take the call. A write (`write`) is retried only
 * when nothing of it reached the member (the connection was refused). Each failure counts for the
 * member's circuit breaker, each answer below 500 ends its streak.
 *
 * `calls`: how many calls the request holds, booked for the member that answered them.
 */
export async function forwardViaPool<T>(
  context: ProxyContext,
  pool: Route,
  record: CallRecord,
  res: ServerResponse,
  options: { write: boolean; calls: number; review?: AnswerReview },
  attempt: MemberAttempt<T>,
): Promise<T> {
  const { members, memberHealth, metrics } = context;
  let member = members.choose(pool);
  if (!member) throw new NoMemberError(pool);
  const tried = new Set<string>([member.nodeId]);
  // Chosen before the first try, so a held 5xx always has a member to go to.
  let backup = members.another(pool, tried);
  for (;;) {
    const { nodeId } = member;
    record.member = { nodeId, calls: 0 };
    res.setHeader(POOL_MEMBER_HEADER, nodeId);
    let status: number | undefined;
    const base = options.review;
    const holdFailures = backup !== undefined && !options.write;
    const review: AnswerReview = {
      holds: (answered) => {
        status = answered;
        return (holdFailures && answered >= 500) || (base?.holds(answered) ?? false);
      },
      replace: (answered, body) => base?.replace(answered, body),
      refuse: (answered) => (holdFailures && answered >= 500 ? new HeldFailureError(answered) : undefined),
    };
    members.track(nodeId, 1);
    try {
      const result = await attempt(member, review);
      if (status !== undefined && status >= 500) memberHealth.failed(nodeId);
      else memberHealth.served(nodeId);
      record.member = { nodeId, calls: options.calls };
      return result;
    } catch (error) {
      // A caller that went away is no failure of the member's.
      const failure = res.destroyed ? undefined : failureOf(error);
      if (failure) memberHealth.failed(nodeId);
      const retry = backup !== undefined && failure !== undefined && (!options.write || failure === 'unsent') && !res.headersSent && !res.destroyed;
      if (!retry) throw error;
      metrics.poolFailovers.inc();
      member = backup!;
      backup = undefined;
      tried.add(member.nodeId);
    } finally {
      members.track(nodeId, -1);
    }
  }
}

/**
 * Whether an error of a forward is the member's failure, and whether anything of the call reached
 * it; undefined when it is not the member's (its answer over the bound, the caller gone, a bug).
 */
function failureOf(error: unknown): 'unsent' | 'sent' | undefined {
  if (!(error instanceof UpstreamError) || error instanceof AnswerTooLargeError) return undefined;
  return error.unsent ? 'unsent' : 'sent';
}
