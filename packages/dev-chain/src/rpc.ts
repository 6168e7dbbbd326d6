/**
 * The JSON-RPC layer of Core's HTTP server (httprpc.cpp, rpc/request.cpp), in two dialects picked
 * per request by its `jsonrpc` member:
 *
 * - absent, null or "1.0": the legacy dialect every Core and Litecoin Core 0.21 speak. The reply
 *   has `result`, `error` and `id` (null when the request had none), one of the first two null; an
 *   error sets the HTTP status: 404 for -32601 (method not found), 400 for -32600 (invalid
 *   request), 500 for anything else.
 * - "2.0": Bitcoin Core 28's JSON-RPC 2.0. The reply carries `jsonrpc: "2.0"` and either `result`
 *   or `error`, never both, with HTTP 200 even for errors; a request without `id` is a
 *   notification: run, but answered with 204 and no body. As in Core, a request that fails to
 *   parse (missing method, bad params member) still gets the legacy status.
 *
 * Any other `jsonrpc` value is refused with -32600 as Core 28 does. A body that is not JSON gets a
 * legacy 500 with -32700. A batch (an array) always gets 200 and one reply per request in order,
 * notifications left out; an all-notification batch gets 204, an empty one `[]`.
 */

import { asNumbers, isObject, parseRequest, stringifyReply } from './lossless-json';

export const RPC_MISC_ERROR = -1;
export const RPC_INVALID_ADDRESS_OR_KEY = -5;
export const RPC_INVALID_PARAMETER = -8;
export const RPC_INVALID_REQUEST = -32600;
export const RPC_METHOD_NOT_FOUND = -32601;
export const RPC_PARSE_ERROR = -32700;

/** An error as Core reports it: a code from rpc/protocol.h and a message. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export type Params = unknown[] | Record<string, unknown>;
/** Runs one method; throws RpcError (anything else is reported as -1, like Core's std::exception). */
export type Execute = (method: string, params: Params) => unknown;

export interface HttpReply {
  status: number;
  /** Absent for an empty body. */
  body?: string | Buffer;
  contentType?: string;
}

interface RequestInfo {
  v2: boolean;
  hasId: boolean;
  id: unknown;
}

interface Call {
  method: string;
  params: Params;
}

/** Core's JSONRPCRequest::parse; fills `info` as far as it gets, so an error reply has the id. */
function parseCall(value: unknown, info: RequestInfo): Call {
  if (!isObject(value)) throw new RpcError(RPC_INVALID_REQUEST, 'Invalid Request object');
  info.hasId = 'id' in value;
  // Kept as written (a number JSON.parse would change, like 12345678901234567890): Core echoes the id it read.
  info.id = value.id ?? null;
  const version = value.jsonrpc;
  if (version !== undefined && version !== null) {
    if (typeof version !== 'string') throw new RpcError(RPC_INVALID_REQUEST, 'jsonrpc field must be a string');
    if (version !== '1.0' && version !== '2.0') throw new RpcError(RPC_INVALID_REQUEST, 'JSON-RPC version not supported');
    info.v2 = version === '2.0';
  }
  const { method, params } = value;
  if (method === undefined || method === null) throw new RpcError(RPC_INVALID_REQUEST, 'Missing method');
  if (typeof method !== 'string') throw new RpcError(RPC_INVALID_REQUEST, 'Method must be a string');
  if (params === undefined || params === null) return { method, params: [] };
  if (!Array.isArray(params) && !isObject(params)) throw new RpcError(RPC_INVALID_REQUEST, 'Params must be an array or object');
  return { method, params: asNumbers(params) as Params };
}

function toRpcError(error: unknown): RpcError {
  return error instanceof RpcError ? error : new RpcError(RPC_MISC_ERROR, error instanceof Error ? error.message : String(error));
}

function replyObject(info: RequestInfo, result: unknown, error?: RpcError): Record<string, unknown> {
  const errorObject = error && { code: error.code, message: error.message };
  if (!info.v2) return { result: error ? null : result, error: errorObject ?? null, id: info.id };
  return { jsonrpc: '2.0', ...(errorObject ? { error: errorObject } : { result }), ...(info.hasId && { id: info.id }) };
}

function json(status: number, value: unknown): HttpReply {
  return { status, body: `${stringifyReply(value)}\n`, contentType: 'application/json' };
}

function errorReply(error: RpcError, info: RequestInfo): HttpReply {
  const status = error.code === RPC_INVALID_REQUEST ? 400 : error.code === RPC_METHOD_NOT_FOUND ? 404 : 500;
  return json(status, replyObject(info, null, error));
}

function freshInfo(): RequestInfo {
  return { v2: false, hasId: false, id: null };
}

/** Runs a parsed call, its error becoming the reply (how 2.0 requests and batches are answered). */
function runCaught(call: Call, info: RequestInfo, execute: Execute): Record<string, unknown> {
  try {
    return replyObject(info, execute(call.method, call.params));
  } catch (error) {
    return replyObject(info, null, toRpcError(error));
  }
}

/** One request of a batch: undefined for a notification. */
function answerInBatch(value: unknown, execute: Execute): Record<string, unknown> | undefined {
  const info = freshInfo();
  let reply: Record<string, unknown>;
  try {
    reply = runCaught(parseCall(value, info), info, execute);
  } catch (error) {
    reply = replyObject(info, null, toRpcError(error));
  }
  return info.v2 && !info.hasId ? undefined : reply;
}

/** Answers a POST body sent to the RPC endpoint (after authentication). */
export function handleRpc(body: string, execute: Execute): HttpReply {
  let request: unknown;
  try {
    request = parseRequest(body);
  } catch {
    return errorReply(new RpcError(RPC_PARSE_ERROR, 'Parse error'), freshInfo());
  }
  if (Array.isArray(request)) {
    const replies = request.map((item) => answerInBatch(item, execute)).filter((reply) => reply !== undefined);
    return replies.length === 0 && request.length > 0 ? { status: 204 } : json(200, replies);
  }
  if (!isObject(request)) return errorReply(new RpcError(RPC_PARSE_ERROR, 'Top-level object parse error'), freshInfo());
  const info = freshInfo();
  try {
    const call = parseCall(request, info);
    if (!info.v2) return json(200, replyObject(info, execute(call.method, call.params)));
    const reply = runCaught(call, info, execute);
    return info.hasId ? json(200, reply) : { status: 204 };
  } catch (error) {
    return errorReply(toRpcError(error), info);
  }
}
