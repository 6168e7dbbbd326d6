import { createHash } from 'node:crypto';

/** A node under test: where it answers, its credentials, and how to mine on it and stop it. */
export interface RpcTarget {
  url: string;
  user: string;
  password: string;
  mine(blocks: number): Promise<void>;
  stop(): Promise<void>;
}

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, when it is JSON. */
  body: unknown;
}

export interface RpcErrorBody {
  code: number;
  message: string;
}

export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** A response read whole: status, headers, text, and the body parsed when it is JSON. */
export async function readHttpResult(response: Response): Promise<HttpResult> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

/** POSTs a raw body (a string is sent as is, anything else as JSON) to the RPC endpoint. */
export async function post(target: RpcTarget, body: unknown, options: { path?: string; authorization?: string | null } = {}): Promise<HttpResult> {
  const authorization = options.authorization === undefined ? basicAuth(target.user, target.password) : options.authorization;
  const response = await fetch(`${target.url}${options.path ?? '/'}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(authorization !== null && { Authorization: authorization }) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return readHttpResult(response);
}

export async function get(target: RpcTarget, path: string): Promise<HttpResult & { bytes: Buffer }> {
  const response = await fetch(`${target.url}${path}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text: bytes.toString('utf8'), body, bytes };
}

/** A legacy (JSON-RPC 1.0) call: the whole reply, with its HTTP status. */
export async function request(target: RpcTarget, method: string, params: unknown = [], path = '/'): Promise<HttpResult> {
  return post(target, { jsonrpc: '1.0', id: 'test', method, params }, { path });
}

/** A legacy call that must succeed: its result. */
export async function call<T = unknown>(target: RpcTarget, method: string, params: unknown = []): Promise<T> {
  const reply = await request(target, method, params);
  const body = reply.body as { result: T; error: RpcErrorBody | null };
  if (reply.status !== 200 || body.error !== null) throw new Error(`${method} failed with HTTP ${reply.status}: ${reply.text}`);
  return body.result;
}

function sha256d(data: Buffer): Buffer {
  return createHash('sha256').update(createHash('sha256').update(data).digest()).digest();
}

/** The block hash of a serialized header (or block): double-SHA256 of the first 80 bytes, shown reversed. */
export function headerHash(hex: string): string {
  return sha256d(Buffer.from(hex.slice(0, 160), 'hex'))
    .reverse()
    .toString('hex');
}

/** The fields of an 80-byte header in hex, decoded as Bitcoin lays them out (little-endian). */
export function decodeHeader(hex: string) {
  const bytes = Buffer.from(hex.slice(0, 160), 'hex');
  return {
    version: bytes.readInt32LE(0),
    previousblockhash: Buffer.from(bytes.subarray(4, 36)).reverse().toString('hex'),
    merkleroot: Buffer.from(bytes.subarray(36, 68)).reverse().toString('hex'),
    time: bytes.readUInt32LE(68),
    bits: bytes.readUInt32LE(72).toString(16).padStart(8, '0'),
    nonce: bytes.readUInt32LE(76),
  };
}
