import type { ServerResponse } from 'node:http';
import type { AnswerReview } from '../forwarding/answer-writer';
import type { UpstreamRequest } from '../forwarding/upstreams';
import type { Call, Dialect, Forwarded } from '../json-rpc/json-rpc';
import type { MethodPolicy } from '../json-rpc/method-policy';
import { stringifyJson } from '../json-rpc/json-text';
import type { Route } from '../routing/route-table';
import type { CallRecord } from '../server/call-record';
import type { ProxyContext } from '../server/proxy-context';
import { sendJsonText } from '../server/responses';
import { countAnsweredCalls } from '../usage/json-rpc-usage';
import { NodeErrorScan } from '../usage/node-error-scan';
import type { BlockPlace, CachePlan, CallCache, KeptPlan } from './call-cache';
import { findMembers } from './json-members';

/** A single forwarded call (not a batch). */
export type SingleCall = Forwarded & { batch: false };

/** What answering a call the cache has a plan for needs besides the plan. */
export interface CacheableCall {
  context: ProxyContext;
  cache: CallCache;
  route: Route;
  record: CallRecord;
  checked: SingleCall;
  dialect: Dialect;
  forward: UpstreamRequest;
  /**
   * Sends a miss on its way: `ask(route, review)` for a node; for a pool, its member choice and
   * failover call `ask` with the member (and the review) each try goes to.
   */
  reach: (ask: (target: Route, review: AnswerReview) => Promise<number>) => Promise<number>;
  res: ServerResponse;
}

/**
 * Answers a call the cache has a plan for (`CallCache.plan`), after the method policy, the access
 * rules and the rate took their share as for any call: from the tracked head, from what is kept,
 * with the result of the same call already at the node, or else from the node, whose answer is
 * read whole (within the node's answer bound) to be kept. The answer says `x-cache: hit` when the
 * node was not asked for it, `miss` otherwise. The bytes sent.
 */
export async function answerCacheable(call: CacheableCall, plan: CachePlan): Promise<number> {
  const { cache } = call;
  if (plan.kind === 'head') {
    cache.counters.hit(plan.family);
    return answerFromCache(call, plan.result);
  }
  const kept = cache.lookup(plan);
  // Within the node's answer bound as the node's own answer would have to be (its owner may have lowered it since).
  if (kept !== undefined && kept.length <= call.context.upstreams.answerLimit(call.route).bytes) {
    cache.counters.hit(plan.family);
    return answerFromCache(call, kept);
  }
  const joined = cache.inFlight.joining(plan.key);
  if (joined) {
    const result = await joined;
    if (result !== undefined) {
      cache.counters.merged(plan.family);
      return answerFromCache(call, result);
    }
  }
  cache.counters.miss(plan.family);
  call.record.forwarding();
  try {
    return await cache.inFlight.lead(plan.key, (settle) => call.reach((target, review) => askNode(call, plan, settle, target, review)));
  } finally {
    call.record.answered();
  }
}

/** The answer to the caller's call with `result`, in the node's dialect and with the caller's id as written; counted as a cached call. */
function answerFromCache({ checked, dialect, record, res }: CacheableCall, result: string): number {
  // Bitcoin Core ends its answer with a line feed.
  const text = answerText(dialect, stringifyJson(checked.call.id, checked.lossless === true), result) + (dialect === '1.0' ? '\n' : '');
  record.calls.count(checked.method, 'ok');
  record.cachedCalls += 1;
  return sendJsonText(res, 200, text, { 'x-cache': 'hit' });
}

/** One call's answer as anvil and Bitcoin Core write theirs. */
function answerText(dialect: Dialect, id: string, result: string): string {
  return dialect === '2.0' ? `{"jsonrpc":"2.0","id":${id},"result":${result}}` : `{"result":${result},"error":null,"id":${id}}`;
}

/**
 * Answers a batch from the cache when every call of it is there (kept, or the head), in order,
 * each with its caller's id, within the node's answer bound; the bytes sent, or undefined (nothing
 * sent) when one call is not, and the batch goes to the node as it is. It stops at the first call
 * the cache has no answer for.
 */
export function answerBatchFromCache(
  { context, cache, route, record, dialect, res }: Omit<CacheableCall, 'checked' | 'forward' | 'reach'>,
  checked: Forwarded & { batch: true },
): number | undefined {
  const lossless = checked.lossless === true;
  let room = context.upstreams.answerLimit(route).bytes;
  // Made once the first call is found: a batch the cache cannot answer costs a lookup, no more.
  let answers: string[] | undefined;
  let families: CachePlan['family'][] | undefined;
  for (const call of checked.forwarded) {
    const plan = cache.plan(route, call as Call & { method: string }, lossless);
    const result = plan?.kind === 'kept' ? cache.lookup(plan) : plan?.result;
    if (plan === undefined || result === undefined) return undefined;
    room -= result.length;
    if (room < 0) return undefined;
    (answers ??= []).push(answerText(dialect, stringifyJson(call.id, lossless), result));
    (families ??= []).push(plan.family);
  }
  if (!answers || !families) return undefined;
  for (const family of families) cache.counters.hit(family);
  countAnsweredCalls(record.calls, checked, 0, () => undefined);
  record.cachedCalls += answers.length;
  return sendJsonText(res, 200, `[${answers.join(',')}]${dialect === '1.0' ? '\n' : ''}`, { 'x-cache': 'hit' });
}

/**
 * Sends the call to the node and its answer, as it came, to the caller; shares its result with
 * identical calls that came meanwhile (`settle`), and keeps it when the rule says.
 */
async function askNode(
  call: CacheableCall,
  plan: KeptPlan,
  settle: (result: string | undefined) => void,
  target: Route,
  review: AnswerReview,
): Promise<number> {
  const { context, cache, record, checked, forward, res } = call;
  const answer = await context.upstreams.requestText(target, forward);
  const held = review.holds(answer.statusCode);
  // A pool's member failing where another may take the call: no answer here, the call is retried.
  const refused = held ? review.refuse?.(answer.statusCode, Buffer.from(answer.text)) : undefined;
  if (refused) throw refused;
  const replacement = held ? review.replace(answer.statusCode, Buffer.from(answer.text)) : undefined;
  const result = answer.statusCode === 200 && !replacement ? cache.resultOf(answer.text) : undefined;
  settle(result);
  const scan = new NodeErrorScan();
  const text = replacement?.text ?? answer.text;
  scan.feed(Buffer.from(text));
  countAnsweredCalls(record.calls, checked, scan.errors, () => text);
  const bytesOut = replacement
    ? sendJsonText(res, replacement.status, replacement.text, { ...replacement.headers, 'x-cache': 'miss' })
    : sendJsonText(res, answer.statusCode, answer.text, { 'x-cache': 'miss' });
  if (result !== undefined) await cache.keep(plan, result, (hash) => blockPlace(context, target, hash));
  return bytesOut;
}

/** Where a block is, asked of the node that answered (its header): for a transaction whose answer names only its block's hash. */
async function blockPlace(context: ProxyContext, target: Route, hash: string): Promise<BlockPlace | undefined> {
  const body = JSON.stringify({ jsonrpc: '1.0', id: 'proxy-cache', method: 'getblockheader', params: [hash] });
  try {
    const answer = await context.upstreams.requestText(target, { method: 'POST', path: '/', body, headers: { 'content-type': 'application/json' } });
    const members = findMembers(answer.text, ['result']);
    const result = members.get('result');
    if (answer.statusCode !== 200 || !result) return undefined;
    const header = findMembers(answer.text, ['height', 'confirmations'], result.start);
    const height = Number(spanText(answer.text, header.get('height')));
    const confirmations = Number(spanText(answer.text, header.get('confirmations')));
    return Number.isSafeInteger(height) && Number.isSafeInteger(confirmations) ? { height, confirmations } : undefined;
  } catch {
    // Not kept, then: the caller has its answer already.
    return undefined;
  }
}

function spanText(text: string, span: { start: number; end: number } | undefined): string {
  return span ? text.slice(span.start, span.end) : '';
}

/**
 * Whether a request on a dev node calls the dev layer (mining, reverting, reorging: what the
 * real-network policy refuses), which may change the chain under the cache (`CallCache.chainChanging`).
 */
export function callsDevLayer(realNetwork: MethodPolicy, checked: Forwarded): boolean {
  if (!checked.batch) return realNetwork.verdictOf(checked.method) !== 'allowed';
  return checked.methods.some((name) => realNetwork.verdictOf(name) !== 'allowed');
}
