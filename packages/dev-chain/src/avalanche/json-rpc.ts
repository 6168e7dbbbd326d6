/**
 * avalanchego's JSON-RPC 2.0 layer (gorilla/rpc's json2 codec), as the dev chain answers it: HTTP 200
 * with `{jsonrpc, result, id}` or `{jsonrpc, error: {code, message, data}, id}`, and no body at all
 * for a notification (a request without `id`). A request must say `"jsonrpc": "2.0"`. A method's
 * failure is -32000 (gorilla's server error) unless it throws a JsonRpcError with its own code.
 * Unlike avalanchego, an unknown method is -32601 rather than -32000, and a batch is refused with
 * -32600 rather than failing to parse.
 */

import { asNumbers, isObject, parseRequest, stringifyReply } from '../lossless-json';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const SERVER_ERROR = -32000;

export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Runs one method with the request's `params` as sent (undefined when absent). */
export type Method = (params: unknown) => unknown;

export interface JsonRpcApi {
  methods: Record<string, Method>;
  /** The error message for a method the API lacks, in the words of the software imitated. */
  unknownMethod(name: string): string;
}

export interface JsonReply {
  status: number;
  /** Absent for an empty body. */
  body?: string;
  contentType?: string;
}

export function jsonReply(status: number, value: unknown): JsonReply {
  return { status, body: `${stringifyReply(value)}\n`, contentType: 'application/json; charset=utf-8' };
}

/**
 * avalanchego's APIs take one object of named arguments; gorilla also accepts it wrapped in a
 * one-element array. No params at all means no arguments.
 */
export function namedParams(params: unknown): Record<string, unknown> {
  if (params === undefined || params === null) return {};
  if (isObject(params)) return params;
  if (Array.isArray(params) && params.length === 1 && isObject(params[0])) return params[0];
  throw new JsonRpcError(INVALID_PARAMS, 'params must be an object of named arguments');
}

function errorReply(id: unknown, error: JsonRpcError): JsonReply {
  return jsonReply(200, { jsonrpc: '2.0', error: { code: error.code, message: error.message, data: null }, id });
}

function run(api: JsonRpcApi, method: string, params: unknown): unknown {
  if (!Object.hasOwn(api.methods, method)) throw new JsonRpcError(METHOD_NOT_FOUND, api.unknownMethod(method));
  try {
    return (api.methods[method] as Method)(params);
  } catch (error) {
    if (error instanceof JsonRpcError) throw error;
    throw new JsonRpcError(SERVER_ERROR, error instanceof Error ? error.message : String(error));
  }
}

/** Answers the body of a POST to one of the node's JSON-RPC endpoints. */
export function answerJsonRpc(body: string, api: JsonRpcApi): JsonReply {
  let request: unknown;
  try {
    request = parseRequest(body);
  } catch (error) {
    return errorReply(null, new JsonRpcError(PARSE_ERROR, `parse error: ${error instanceof Error ? error.message : String(error)}`));
  }
  if (Array.isArray(request)) return errorReply(null, new JsonRpcError(INVALID_REQUEST, 'batch requests are not supported'));
  if (!isObject(request)) return errorReply(null, new JsonRpcError(INVALID_REQUEST, 'a request must be a JSON object'));
  const id = request.id ?? null;
  if (request.jsonrpc !== '2.0') return errorReply(id, new JsonRpcError(INVALID_REQUEST, 'jsonrpc must be 2.0'));
  if (typeof request.method !== 'string') return errorReply(id, new JsonRpcError(INVALID_REQUEST, 'method must be a string'));
  let reply: JsonReply;
  try {
    reply = jsonReply(200, { jsonrpc: '2.0', result: run(api, request.method, asNumbers(request.params)), id });
  } catch (error) {
    reply = errorReply(id, error as JsonRpcError);
  }
  return 'id' in request ? reply : { status: 200 };
}
