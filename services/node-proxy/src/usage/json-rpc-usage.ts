import { idKey, OTHER_METHOD, parseNodeBatchAnswer, type Call, type Checked, type Forwarded } from '../json-rpc/json-rpc';
import type { CallTally } from './call-tally';

/**
 * Counts the calls of a request the proxy refused (in part or whole), as `outcome` (`refused`, or
 * `rate_limited` for a request over the rate as well): each under the name the method policy
 * knows it by (`personal_*` for a refused prefix), a name no list has under `other`, and a request
 * refused whole (not JSON, over the batch limit) under `other` too. The set stays bounded by the
 * lists, whatever names callers send.
 */
export function countRefusedCalls(calls: CallTally, checked: Checked, outcome: 'refused' | 'rate_limited' = 'refused'): void {
  for (const method of checked.refusedMethods) calls.count(method, outcome);
  calls.count(OTHER_METHOD, outcome, checked.refusedCount - checked.refusedMethods.length);
}

/** Counts the calls of a request over the node's rate: each forwarded name, and the refused ones as countRefusedCalls names them. */
export function countRateLimitedCalls(calls: CallTally, checked: Forwarded): void {
  countForwarded(calls, checked, () => 'rate_limited');
  countRefusedCalls(calls, checked, 'rate_limited');
}

/** Counts the forwarded calls of a request whose answer was over the node's bound as refused (the proxy did not pass it on). */
export function countAnswerRefusedCalls(calls: CallTally, checked: Forwarded): void {
  countForwarded(calls, checked, () => 'refused');
}

/**
 * Counts the forwarded calls of a request by method, as `ok` or `node_error`. `errors` is how many
 * error answers the node gave; for a batch with errors, `answer` (the node's answer, text or parsed)
 * tells which calls they answer, matched by id as the batch merge does.
 */
export function countAnsweredCalls(calls: CallTally, checked: Forwarded, errors: number, answer: () => unknown): void {
  if (errors === 0) return countForwarded(calls, checked, () => 'ok');
  if (!checked.batch) return calls.count(checked.method, 'node_error');
  const failed = failedIds(answer());
  countForwarded(calls, checked, (call) => {
    if (!('id' in call) || failed === 'all') return failed === 'all' ? 'node_error' : 'ok';
    const key = idKey(call.id);
    const left = failed.get(key) ?? 0;
    if (left === 0) return 'ok';
    failed.set(key, left - 1);
    return 'node_error';
  });
}

type ForwardedOutcome = 'ok' | 'node_error' | 'rate_limited' | 'refused';

/** Counts each forwarded call as `outcome` says; a run of calls of one method and outcome (a batch's usual shape) is counted at once. */
function countForwarded(calls: CallTally, checked: Forwarded, outcome: (call: Call) => ForwardedOutcome): void {
  if (!checked.batch) return calls.count(checked.method, outcome({}));
  const { forwarded, methods } = checked;
  let method = methods[0]!;
  let runOutcome = outcome(forwarded[0]!);
  let run = 1;
  for (let index = 1; index < forwarded.length; index++) {
    const next = outcome(forwarded[index]!);
    if (methods[index] === method && next === runOutcome) {
      run++;
      continue;
    }
    calls.count(method, runOutcome, run);
    method = methods[index]!;
    runOutcome = next;
    run = 1;
  }
  calls.count(method, runOutcome, run);
}

/** The ids the node answered with an error, with how many times; `all` when it answered the whole batch with one error. */
function failedIds(answer: unknown): Map<string, number> | 'all' {
  const value = typeof answer === 'string' ? parseNodeBatchAnswer(answer).value : answer;
  if (!Array.isArray(value)) return 'all';
  const failed = new Map<string, number>();
  for (const each of value) {
    if (!isErrorAnswer(each)) continue;
    const key = idKey(each.id);
    failed.set(key, (failed.get(key) ?? 0) + 1);
  }
  return failed;
}

function isErrorAnswer(value: unknown): value is { id?: unknown; error: object } {
  return typeof value === 'object' && value !== null && 'error' in value && typeof value.error === 'object' && value.error !== null;
}
