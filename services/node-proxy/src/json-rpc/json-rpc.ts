import { isLosslessNumber } from 'lossless-json';
import { DEFAULT_MAX_DEPTH, parseJson, stringifyJson, TooDeepError, type ParsedJson } from './json-text';
import { normaliseMethod, type CallPolicy } from './method-policy';

/**
 * The usage bucket of every call the proxy refuses whose name no list knows (or that it cannot
 * read at all): such a name is the caller's to make up, so not a bounded label.
 */
export const OTHER_METHOD = 'other';

/** One JSON-RPC call as parsed: re-serialised before it is forwarded, so the node sees exactly what was checked. */
export type Call = Record<string, unknown>;

/**
 * Who refused a method, in a refusal's `data`: the platform's lists (including a method they do
 * not offer) or the node's owner's access rules (refusedMethods). `message` says it in go-ethereum's
 * words, "the method … does not exist/is not available", which clients look for: ethers v6
 * classifies an error whose messages match `/the method .* does not exist/i` as
 * UNSUPPORTED_OPERATION (provider-jsonrpc.ts getRpcError, searching every `message` of the error,
 * `data` included), where the proxy's own words alone made it UNKNOWN_ERROR.
 */
export interface RefusalData {
  refusedBy: 'platform' | 'accessRule';
  method: string;
  message: string;
}

/** Why the proxy did not pass a node's answer on: over the node's answer bound (the owner's or the platform's). */
export interface AnswerLimitData {
  refusedBy: 'platform' | 'accessRule';
  answerLimitBytes: number;
  /** The answer's size, when the node announced it. */
  answerBytes?: number;
}

export interface RpcError {
  code: number;
  message: string;
  data?: RefusalData | AnswerLimitData;
}

export type RpcErrorAnswer = { jsonrpc: '2.0'; id: unknown; error: RpcError } | { result: null; error: RpcError; id: unknown };

/** JSON-RPC 2.0, or the 1.0 Bitcoin Core and Litecoin Core 0.21 answer every call in (`result`, `error` and `id`, no `jsonrpc`). */
export type Dialect = '1.0' | '2.0';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_ALLOWED = -32601;
/**
 * EIP-1474's "limit exceeded": a call the node may serve, but not now or not so (over the node's
 * rate over WebSocket, its answer over the bound, the node busy).
 */
export const LIMIT_EXCEEDED = -32005;

/**
 * What the filter made of a request body:
 * - `refused`: nothing goes to the node; answer `answer` with HTTP `status`;
 * - `forward`: send `body` to the node; for a batch, `answers` holds the proxy's own answer at
 *   each refused position (undefined where the node answers), `forwarded` the calls sent, and
 *   `refusedCount` how many were refused.
 * `lossless` is set when the body holds numbers JSON.parse would change: they are kept as written
 * (lossless-json), in `body` and in the proxy's answers, which `serialise` writes accordingly.
 * `unknown` names the methods refused because neither list has them (as sent), for the metrics.
 * `refusedMethods` holds, for each refused call that was judged on its own, the name usage counts
 * it under (`CallPolicy.usageName`, or `other`); the rest of `refusedCount` (a request refused
 * whole: not JSON, an empty batch, a batch over the limit) counts under `other`.
 * `method` (one call) and `methods` (each forwarded call of a batch) are the allowed names, as the
 * lists write them, that usage counts the forwarded calls under.
 */
export type Checked = (
  | { outcome: 'refused'; status: number; answer: unknown; refusedCount: number }
  | { outcome: 'forward'; body: string; batch: false; refusedCount: 0; call: Call; method: string }
  | { outcome: 'forward'; body: string; batch: true; forwarded: Call[]; methods: string[]; answers: (RpcErrorAnswer | undefined)[]; refusedCount: number }
) & { unknown: readonly string[]; refusedMethods: readonly string[]; lossless?: true };

/** A request with calls to forward. */
export type Forwarded = Checked & { outcome: 'forward' };

/**
 * An error answering `call`: in `dialect` when given (the node's own, so the proxy's answers look
 * like the node's, in a batch too), else in the call's (JSON-RPC 2.0 when it said so, 1.0
 * otherwise); with `data` when given.
 */
export function errorAnswer(call: unknown, code: number, message: string, options: { dialect?: Dialect; data?: RpcError['data'] } = {}): RpcErrorAnswer {
  const id = isCall(call) && 'id' in call ? call.id : null;
  const error: RpcError = options.data ? { code, message, data: options.data } : { code, message };
  const dialect = options.dialect ?? (isCall(call) && call.jsonrpc === '2.0' ? '2.0' : '1.0');
  if (dialect === '2.0') return { jsonrpc: '2.0', id, error };
  return { result: null, error, id };
}

/** The proxy's -32601 for a method it does not forward: the contract's message, and who refused it in `data`. */
function refusal(call: Call & { method: string }, dialect: Dialect, refusedBy: RefusalData['refusedBy'], offered: boolean): RpcErrorAnswer {
  const quoted = JSON.stringify(call.method);
  const message = `method ${quoted} is not allowed on this hosted node${offered ? '' : ' (not offered)'}`;
  return errorAnswer(call, METHOD_NOT_ALLOWED, message, {
    dialect,
    data: { refusedBy, method: call.method, message: `the method ${quoted} does not exist/is not available on this hosted node` },
  });
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
  // A loop over the keys rather than Object.keys: every call of a batch passes here.
  // The first letter before toLowerCase, which makes a string: `params` has six letters too.
  for (const key in call) if (key.length === 6 && (key.charCodeAt(0) | 0x20) === 0x6d && key !== 'method' && key.toLowerCase() === 'method') return true;
  return false;
}

/**
 * Why this call is not forwarded, or, when it may go to the node (its method is allowed), the
 * method's name as the lists write it. A method neither allowed nor refused on purpose is refused
 * as not offered, and added to `unknown`. With `lastAllowed`, a call repeating the method allowed
 * last (as sent, exactly) is not looked up again.
 */
function judge(call: unknown, policy: CallPolicy, found: Found, lastAllowed?: LastAllowed): RpcErrorAnswer | string {
  const { dialect } = policy;
  if (!isCall(call) || typeof call.method !== 'string') {
    found.refusedMethods.push(OTHER_METHOD);
    return errorAnswer(call, INVALID_REQUEST, 'invalid request: a call is an object with a string "method"', { dialect });
  }
  if (hasMethodLookalike(call)) {
    found.refusedMethods.push(OTHER_METHOD);
    return errorAnswer(call, INVALID_REQUEST, 'invalid request: a call has one "method" key, in lower case', { dialect });
  }
  const named = call as Call & { method: string };
  if (lastAllowed && named.method === lastAllowed.method) return lastAllowed.name;
  const name = normaliseMethod(named.method);
  const verdict = policy.verdictOf(name);
  if (verdict === 'allowed') {
    if (lastAllowed) {
      lastAllowed.method = named.method;
      lastAllowed.name = name;
    }
    return name;
  }
  found.refusedMethods.push(policy.usageName(name) ?? OTHER_METHOD);
  if (verdict === 'refused') return refusal(named, dialect, 'platform', true);
  if (verdict === 'refusedByOwner') return refusal(named, dialect, 'accessRule', true);
  found.unknown.push(named.method);
  return refusal(named, dialect, 'platform', false);
}

/** What judging a request's calls found besides the verdicts: the names no list has, and the usage name of each refused call. */
interface Found {
  unknown: string[];
  refusedMethods: string[];
}

/** A batch's last allowed method, as sent and as the lists write it: its calls mostly repeat one, judged once. */
interface LastAllowed {
  method: string | undefined;
  name: string;
}

/**
 * Parses and checks a JSON-RPC request body (one call or a batch) against the method policy, the
 * batch limit and the nesting limit (checked on the raw text, before anything recurses over it).
 */
export function checkRequest(body: string, filter: CallPolicy, maxBatch: number, maxDepth = DEFAULT_MAX_DEPTH): Checked {
  const found: Found = { unknown: [], refusedMethods: [] };
  // A request-level error has no call: the family's dialect, as for every answer of the proxy's.
  const whole = filter.dialect === '2.0' ? { jsonrpc: '2.0' } : {};
  let parsed: ParsedJson;
  try {
    parsed = parseJson(body, maxDepth);
  } catch (error) {
    if (error instanceof TooDeepError)
      return { outcome: 'refused', status: 400, answer: errorAnswer(whole, INVALID_REQUEST, error.message), refusedCount: 1, ...found };
    return { outcome: 'refused', status: 400, answer: errorAnswer(whole, PARSE_ERROR, 'parse error: the body is not JSON'), refusedCount: 1, ...found };
  }
  const checked = checkParsed(parsed, body, filter, maxBatch, whole, found);
  return parsed.lossless ? { ...checked, lossless: true } : checked;
}

/** What is forwarded of a request all of whose calls pass: the text as sent when it is JSON.stringify's own writing of what was checked. */
function wholeBody(json: ParsedJson, text: string): string {
  return json.canonical ? text : stringifyJson(json.value, json.lossless);
}

function checkParsed(json: ParsedJson, text: string, filter: CallPolicy, maxBatch: number, whole: object, found: Found): Checked {
  const { value: parsed, lossless } = json;
  if (!Array.isArray(parsed)) {
    const judged = judge(parsed, filter, found);
    if (typeof judged !== 'string')
      return { outcome: 'refused', status: judged.error.code === INVALID_REQUEST ? 400 : 200, answer: judged, refusedCount: 1, ...found };
    return { outcome: 'forward', body: wholeBody(json, text), batch: false, refusedCount: 0, call: parsed as Call, method: judged, ...found };
  }
  if (parsed.length === 0)
    return { outcome: 'refused', status: 400, answer: errorAnswer(whole, INVALID_REQUEST, 'invalid request: empty batch'), refusedCount: 1, ...found };
  if (parsed.length > maxBatch) {
    return {
      outcome: 'refused',
      status: 413,
      answer: errorAnswer(whole, INVALID_REQUEST, `batch of ${parsed.length} calls is over the limit of ${maxBatch}`),
      refusedCount: parsed.length,
      ...found,
    };
  }
  const answers: (RpcErrorAnswer | undefined)[] = [];
  const forwarded: Call[] = [];
  const methods: string[] = [];
  const lastAllowed: LastAllowed = { method: undefined, name: '' };
  for (const call of parsed as unknown[]) {
    const judged = judge(call, filter, found, lastAllowed);
    if (typeof judged === 'string') {
      forwarded.push(call as Call);
      methods.push(judged);
      answers.push(undefined);
    } else {
      answers.push(judged);
    }
  }
  const refusedCount = parsed.length - forwarded.length;
  if (forwarded.length === 0) return { outcome: 'refused', status: 200, answer: answers, refusedCount, ...found };
  const body = refusedCount === 0 ? wholeBody(json, text) : stringifyJson(forwarded, lossless);
  return { outcome: 'forward', body, batch: true, forwarded, methods, answers, refusedCount, ...found };
}

/** The text of an answer the proxy makes for a checked request: numbers (ids) as the caller wrote them. */
export function serialise(checked: Pick<Checked, 'lossless'>, answer: unknown): string {
  return stringifyJson(answer, checked.lossless === true);
}

/**
 * The node's answer to the forwarded part of a batch. A batch of notifications only is answered
 * with nothing at all (JSON-RPC 2.0: "the Server MUST NOT return an empty Array"), which is no
 * answer to merge, not an error; a body that is not JSON becomes one error in the batch.
 */
export function parseNodeBatchAnswer(text: string): ParsedJson {
  if (text.trim() === '') return { value: [], lossless: false, canonical: false };
  try {
    return parseJson(text);
  } catch {
    return {
      value: { result: null, error: { code: -32603, message: 'the node answered with something other than JSON' }, id: null },
      lossless: false,
      canonical: false,
    };
  }
}

/** The whole answer to a batch with refusals, as text: the node's answers merged in, numbers as written on either side. */
export function mergedBatchText(
  batch: { answers: readonly (RpcErrorAnswer | undefined)[]; forwarded: readonly Call[]; lossless?: true },
  node: ParsedJson,
): string {
  return stringifyJson(mergeBatchAnswers(batch.answers, batch.forwarded, node.value), batch.lossless === true || node.lossless);
}

/**
 * The proxy's own answer in place of the node's to the forwarded calls (the node busy, its answer
 * over the bound): `each` for every forwarded call, a batch's refusals kept in place.
 */
export function answerForwardedCalls(checked: Forwarded, each: (call: Call) => RpcErrorAnswer): unknown {
  if (!checked.batch) return each(checked.call);
  return mergeBatchAnswers(checked.answers, checked.forwarded, checked.forwarded.map(each));
}

/**
 * Puts the node's answers to the forwarded calls back among the proxy's refusals, in the order of
 * the request. Answers are matched by id (a server may reorder a batch); a call the node did not
 * answer (a notification) gets no entry, and an answer matching no call is kept at the end.
 * Numeric ids match by value (a node may write `-0` back as `0`, `1.50` as `1.5`), and a matched
 * answer carries the id as the caller wrote it.
 */
export function mergeBatchAnswers(answers: readonly (RpcErrorAnswer | undefined)[], forwarded: readonly Call[], nodeAnswers: unknown): unknown[] {
  if (!Array.isArray(nodeAnswers)) return [...answers.filter((answer) => answer !== undefined), nodeAnswers];
  const byId = new Map<string, unknown[]>();
  for (const answer of nodeAnswers) {
    const key = idKey(isCall(answer) ? answer.id : null);
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
    const match = byId.get(idKey(call.id))?.shift();
    if (match !== undefined) merged.push(isCall(match) ? { ...match, id: call.id } : match);
  }
  for (const rest of byId.values()) merged.push(...rest);
  return merged;
}

/**
 * How an id is matched: numbers (plain or kept as written) by value, integers past 2^53 exactly
 * (as BigInt, so 12345678901234567890 and …891 stay apart), anything else by its JSON.
 */
export function idKey(id: unknown): string {
  if (typeof id === 'number') return `n${id}`;
  if (isLosslessNumber(id)) {
    const value = Number(id.value);
    return /^-?\d+$/.test(id.value) && !Number.isSafeInteger(value) ? `i${BigInt(id.value)}` : `n${value}`;
  }
  return JSON.stringify(id ?? null);
}
