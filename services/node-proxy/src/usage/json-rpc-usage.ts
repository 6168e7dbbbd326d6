import { idKey, OTHER_METHOD, parseNodeBatchAnswer, type Call, type Checked, type Forwarded } from '../json-rpc/json-rpc';
import type { UsageKey, UsageMeter } from './usage-meter';

/**
 * Counts the calls of a request the proxy refused (in part or whole), as `outcome` (`refused`, or
 * `rate_limited` for a request over the rate as well): each under the name the method policy
 * knows it by (`personal_*` for a refused prefix), a name no list has under `other`, and a request
 * refused whole (not JSON, over the batch limit) under `other` too. The set stays bounded by the
 * lists, whatever names callers send.
 */
export function countRefusedCalls(usage: UsageMeter, caller: UsageKey, checked: Checked, outcome: 'refused' | 'rate_limited' = 'refused'): void {
  for (const method of checked.refusedMethods) usage.count(caller, method, outcome);
  usage.count(caller, OTHER_METHOD, outcome, checked.refusedCount - checked.refusedMethods.length);
}

/** Counts the calls of a request over the node's rate: each forwarded name, and the refused ones as countRefusedCalls names them. */
export function countRateLimitedCalls(usage: UsageMeter, caller: UsageKey, checked: Forwarded): void {
  countForwarded(usage, caller, checked, () => 'rate_limited');
  countRefusedCalls(usage, caller, checked, 'rate_limited');
}

/** Counts the forwarded calls of a request whose answer was over the node's bound as refused (the proxy did not pass it on). */
export function countAnswerRefusedCalls(usage: UsageMeter, caller: UsageKey, checked: Forwarded): void {
  countForwarded(usage, caller, checked, () => 'refused');
}

/**
 * Counts the forwarded calls of a request by method, as `ok` or `node_error`. `errors` is how many
 * error answers the node gave; for a batch with errors, `answer` (the node's answer, text or parsed)
 * tells which calls they answer, matched by id as the batch merge does.
 */
export function countAnsweredCalls(usage: UsageMeter, caller: UsageKey, checked: Forwarded, errors: number, answer: () => unknown): void {
  if (errors === 0) return countForwarded(usage, caller, checked, () => 'ok');
  if (!checked.batch) return usage.count(caller, checked.method, 'node_error');
  const failed = failedIds(answer());
  countForwarded(usage, caller, checked, (call) => {
    if (!('id' in call) || failed === 'all') return failed === 'all' ? 'node_error' : 'ok';
    const key = idKey(call.id);
    const left = failed.get(key) ?? 0;
    if (left === 0) return 'ok';
    failed.set(key, left - 1);
    return 'node_error';
  });
}

function countForwarded(usage: UsageMeter, caller: UsageKey, checked: Forwarded, outcome: (call: Call) => 'ok' | 'node_error' | 'rate_limited' | 'refused'): void {
  if (!checked.batch) return usage.count(caller, checked.method, outcome({}));
  checked.forwarded.forEach((call, index) => usage.count(caller, checked.methods[index]!, outcome(call)));
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
