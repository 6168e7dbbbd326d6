import type { MethodFilter } from './method-filter';

/** One JSON-RPC call as parsed: re-serialised before it is forwarded, so the node sees exactly what was checked. */
export type Call = Record<string, unknown>;

export type RpcErrorAnswer = { jsonrpc: '2.0'; id: unknown; error: { code: number; message: string } } | { result: null; error: { code: number; message: string }; id: unknown };

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_ALLOWED = -32601;

/**
 * What the filter made of a request body:
 * - `refused`: nothing goes to the node; answer `answer` with HTTP `status`;
 * - `forward`: send `body` to the node; for a batch, `answers` holds the proxy's own answer at
 *   each refused position (undefined where the node answers), `forwarded` the calls sent, and
 *   `refusedCount` how many were refused.
 */
export type Checked =
  | { outcome: 'refused'; status: number; answer: unknown; refusedCount: number }
  | { outcome: 'forward'; body: string; batch: false; refusedCount: 0 }
  | { outcome: 'forward'; body: string; batch: true; forwarded: Call[]; answers: (RpcErrorAnswer | undefined)[]; refusedCount: number };

/** An error in the dialect of the call it answers: JSON-RPC 2.0 when it said so, Bitcoin Core's 1.0 otherwise. */
export function errorAnswer(call: unknown, code: number, message: string): RpcErrorAnswer {
  const id = isCall(call) && 'id' in call ? call.id : null;
  if (isCall(call) && call.jsonrpc === '2.0') return { jsonrpc: '2.0', id, error: { code, message } };
  return { result: null, error: { code, message }, id };
}

function isCall(value: unknown): value is Call {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether the call has a key like `METHOD` besides `method`. Go's encoding/json (avalanchego, geth)
 * takes any casing of a key for the field and keeps the last one, so such a call could name one
 * method to the filter and another to the node.
 */
function hasMethodLookalike(call: Call): boolean {
  return Object.keys(call).some((key) => key !== 'method' && key.length === 6 && key.toLowerCase() === 'method');
}

/** Why this call is not forwarded, or undefined when it may go to the node. */
function refusal(call: unknown, filter: MethodFilter): RpcErrorAnswer | undefined {
  if (!isCall(call) || typeof call.method !== 'string') return errorAnswer(call, INVALID_REQUEST, 'invalid request: a call is an object with a string "method"');
  if (hasMethodLookalike(call)) return errorAnswer(call, INVALID_REQUEST, 'invalid request: a call has one "method" key, in lower case');
  if (filter.blocks(call.method)) return errorAnswer(call, METHOD_NOT_ALLOWED, `method ${JSON.stringify(call.method)} is not allowed on this hosted node`);
  return undefined;
}

/** Parses and checks a JSON-RPC request body (one call or a batch) against the filter and the batch limit. */
export function checkRequest(body: string, filter: MethodFilter, maxBatch: number): Checked {
  // A request-level error has no call to take the dialect from: the family's own.
  const whole = filter.dialect === '2.0' ? { jsonrpc: '2.0' } : {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { outcome: 'refused', status: 400, answer: errorAnswer(whole, PARSE_ERROR, 'parse error: the body is not JSON'), refusedCount: 1 };
  }
  if (!Array.isArray(parsed)) {
    const refused = refusal(parsed, filter);
    if (refused) return { outcome: 'refused', status: refused.error.code === INVALID_REQUEST ? 400 : 200, answer: refused, refusedCount: 1 };
    return { outcome: 'forward', body: JSON.stringify(parsed), batch: false, refusedCount: 0 };
  }
  if (parsed.length === 0) return { outcome: 'refused', status: 400, answer: errorAnswer(whole, INVALID_REQUEST, 'invalid request: empty batch'), refusedCount: 1 };
  if (parsed.length > maxBatch) {
    return {
      outcome: 'refused',
      status: 413,
      answer: errorAnswer(whole, INVALID_REQUEST, `batch of ${parsed.length} calls is over the limit of ${maxBatch}`),
      refusedCount: parsed.length,
    };
  }
  const answers = parsed.map((call: unknown) => refusal(call, filter));
  const forwarded = parsed.filter((_call: unknown, index) => answers[index] === undefined) as Call[];
  const refusedCount = parsed.length - forwarded.length;
  if (forwarded.length === 0) return { outcome: 'refused', status: 200, answer: answers, refusedCount };
  return { outcome: 'forward', body: JSON.stringify(forwarded), batch: true, forwarded, answers, refusedCount };
}

/**
 * Puts the node's answers to the forwarded calls back among the proxy's refusals, in the order of
 * the request. Answers are matched by id (a server may reorder a batch); a call the node did not
 * answer (a notification) gets no entry, and an answer matching no call is kept at the end.
 */
/**
 * The node's answer to the forwarded part of a batch. A batch of notifications only is answered
 * with nothing at all (JSON-RPC 2.0: "the Server MUST NOT return an empty Array"), which is no
 * answer to merge, not an error; a body that is not JSON becomes one error in the batch.
 */
export function parseNodeBatchAnswer(text: string): unknown {
  if (text.trim() === '') return [];
  try {
    return JSON.parse(text);
  } catch {
    return { result: null, error: { code: -32603, message: 'the node answered with something other than JSON' }, id: null };
  }
}

export function mergeBatchAnswers(answers: readonly (RpcErrorAnswer | undefined)[], forwarded: readonly Call[], nodeAnswers: unknown): unknown[] {
  if (!Array.isArray(nodeAnswers)) return [...answers.filter((answer) => answer !== undefined), nodeAnswers];
  const byId = new Map<string, unknown[]>();
  for (const answer of nodeAnswers) {
    const key = JSON.stringify(isCall(answer) ? (answer.id ?? null) : null);
    const queue = byId.get(key);
    if (queue) queue.push(answer);
    else byId.set(key, [answer]);
  }
  const merged: unknown[] = [];
  let next = 0;
  for (const answer of answers) {
    if (answer !== undefined) {
      merged.push(answer);
      continue;
    }
    const call = forwarded[next++]!;
    const match = byId.get(JSON.stringify(call.id ?? null))?.shift();
    if (match !== undefined) merged.push(match);
  }
  for (const rest of byId.values()) merged.push(...rest);
  return merged;
}
