import type { ServerResponse } from 'node:http';

/** Writes a JSON answer; returns the bytes of the body, for usage. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): number {
  return sendJsonText(res, status, JSON.stringify(body), headers);
}

/** Writes JSON already serialised; returns the bytes of the body, for usage. */
export function sendJsonText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): number {
  const length = Buffer.byteLength(text);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': length, ...headers });
  res.end(text);
  return length;
}

/** The `{code, message}` error body every service answers with (runtime contract, "Errors"). */
export function sendError(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): number {
  return sendJson(res, status, { code, message }, headers);
}
