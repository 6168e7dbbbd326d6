// One HTTP call with a deadline, over keep-alive connections; a network error or timeout is a
// result (status 0), not an exception, because the suite counts them.
import { Agent, request } from 'node:http';

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

export interface Answer {
  /** 0 when no answer came (refused, reset, timed out). */
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  error?: string;
}

export function call(method: string, url: string, options: { headers?: Record<string, string>; body?: unknown; timeoutMs?: number } = {}): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method,
        agent,
        headers: {
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }),
          ...options.headers,
        },
        timeout: options.timeoutMs ?? 5_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (error) => resolve({ status: 0, headers: {}, body: '', error: error.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error) => resolve({ status: 0, headers: {}, body: '', error: error.message }));
    req.end(payload);
  });
}

/** The parsed JSON body of a 2xx answer; throws naming `what` otherwise. */
export async function expectJson<T>(what: string, answer: Promise<Answer>): Promise<T> {
  const { status, body, error } = await answer;
  if (status < 200 || status > 299) throw new Error(`${what}: ${status || error} ${body.slice(0, 300)}`);
  return (body ? JSON.parse(body) : undefined) as T;
}
