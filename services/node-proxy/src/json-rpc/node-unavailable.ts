import type { Family } from '../routing/interfaces';
import { answerForwardedCalls, errorAnswer, LIMIT_EXCEEDED, serialise, type Dialect, type Forwarded } from './json-rpc';

/** How long a caller is asked to wait before calling a busy or warming-up node again. */
export const NODE_RETRY_AFTER_SECONDS = 1;
/** Bitcoin Core's RPC_IN_WARMUP: it is loading or verifying its blocks, and answers every call so (HTTP 500) until done. */
export const IN_WARMUP = -28;

/** What the caller gets in place of the node's answer. */
export interface Replacement {
  status: 503;
  headers: Record<string, string>;
  text: string;
}

/**
 * Whether a node's answer with this HTTP status may be a moment of the node's own (busy, warming
 * up), to be read whole and judged by `unavailableAnswer` rather than streamed to the caller:
 * 503 from any node (later Bitcoin Core answers "Work queue depth exceeded" so beyond its RPC work
 * queue), and a Bitcoin-family 500: -28 comes so, and Litecoin Core 0.21's "Work queue depth
 * exceeded" (a text page, not JSON) too.
 */
export function mayBeUnavailable(family: Family, status: number): boolean {
  return status === 503 || (status === 500 && family === 'bitcoin');
}

/**
 * The answer for the caller when the node said it cannot take calls for a moment: 503 with
 * `Retry-After` and a JSON-RPC error in the node's dialect (an error for each call of a batch, the
 * proxy's refusals kept in place), never the node's HTML page or a bare 500. A -28 answer is the
 * node's own JSON-RPC error, passed on with 503 instead of 500. Undefined for any other answer,
 * which the caller gets as the node gave it.
 */
export function unavailableAnswer(checked: Forwarded, dialect: Dialect, status: number, body: Buffer): Replacement | undefined {
  if (status === 503 || isWorkQueueFull(body)) return replacement(busyText(checked, dialect));
  if (status === 500 && !checked.batch && isWarmupAnswer(body)) return replacement(body.toString('utf8'));
  return undefined;
}

function busyText(checked: Forwarded, dialect: Dialect): string {
  const message = `the node is busy and did not take the call; try again in ${NODE_RETRY_AFTER_SECONDS} s`;
  return serialise(
    checked,
    answerForwardedCalls(checked, (call) => errorAnswer(call, LIMIT_EXCEEDED, message, { dialect })),
  );
}

/** Bitcoin Core's words when its RPC work queue is full: HTTP 500 in Litecoin Core 0.21, 503 in later Bitcoin Core. */
function isWorkQueueFull(body: Buffer): boolean {
  return body.subarray(0, 100).toString('latin1').includes('Work queue depth exceeded');
}

function isWarmupAnswer(body: Buffer): boolean {
  return errorCodeOf(body) === IN_WARMUP;
}

/**
 * Whether a node's HTTP 500 is its JSON-RPC answer to the call itself: Bitcoin Core answers a call
 * that fails (an unknown block `-5`, a height out of range `-8`, a bad param) with HTTP 500 and its
 * JSON-RPC error. That is the caller's call failing, not the node: a pool neither retries it on
 * another member nor counts it against this one. A -28 (warming up) is the node's moment.
 */
export function isCallErrorAnswer(status: number, body: Buffer): boolean {
  if (status !== 500) return false;
  const code = errorCodeOf(body);
  return typeof code === 'number' && code !== IN_WARMUP;
}

/** The `error.code` of a single JSON-RPC answer; undefined for anything else (a page, a batch, no error). */
function errorCodeOf(body: Buffer): unknown {
  try {
    const answer = JSON.parse(body.toString('utf8')) as { error?: { code?: unknown } | null } | null;
    return answer?.error?.code;
  } catch {
    return undefined;
  }
}

function replacement(text: string): Replacement {
  return { status: 503, headers: { 'content-type': 'application/json', 'retry-after': String(NODE_RETRY_AFTER_SECONDS) }, text };
}
