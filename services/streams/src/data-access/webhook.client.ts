import type { LookupFunction } from 'node:net';
import { Agent, request } from 'undici';

/** Where to POST, and the address to connect to (checked beforehand: no lookup happens here). */
export interface PinnedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** What came of one POST: never thrown, a failure is an `error`. */
export interface WebhookOutcome {
  /** The receiver's status; null when none came (timeout, network error). */
  statusCode: number | null;
  latencyMs: number;
  /** Null when the receiver answered 2xx; else why, with the start of its answer. */
  error: string | null;
}

const ANSWER_BYTES = 4096;

/**
 * POSTs deliveries with undici over a connection to the pinned address (TLS name and Host from
 * the URL), follows no redirect, and reads at most 4 KiB of the answer for the log.
 */
export class WebhookClient {
  constructor(private readonly timeoutMs: number) {}

  async post(target: PinnedTarget, headers: Record<string, string>, body: string): Promise<WebhookOutcome> {
    const pinned: LookupFunction = (_host, options, callback) => {
      if (options.all)
        (callback as (error: null, addresses: Array<{ address: string; family: number }>) => void)(null, [{ address: target.address, family: target.family }]);
      else callback(null, target.address, target.family);
    };
    const agent = new Agent({ connect: { lookup: pinned }, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs, connections: 1 });
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    try {
      const answer = await request(target.url, {
        method: 'POST',
        dispatcher: agent,
        headers,
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const text = await readSome(answer.body);
      const latencyMs = latency();
      if (answer.statusCode >= 200 && answer.statusCode < 300) return { statusCode: answer.statusCode, latencyMs, error: null };
      return { statusCode: answer.statusCode, latencyMs, error: `HTTP ${answer.statusCode}${text ? `: ${text}` : ''}` };
    } catch (failure) {
      return { statusCode: null, latencyMs: latency(), error: reasonOf(failure) };
    } finally {
      agent.destroy().catch(() => undefined);
    }
  }
}

/** The answer's first 4 KiB as text; the rest is not read (the stream is destroyed). */
async function readSome(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= ANSWER_BYTES) break;
    }
  } catch {
    // What was read is enough for the log; the status decides.
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, ANSWER_BYTES).toString('utf8');
}

function reasonOf(failure: unknown): string {
  const error = failure as Error & { code?: string; cause?: Error & { code?: string } };
  if (error.name === 'TimeoutError' || error.code === 'UND_ERR_HEADERS_TIMEOUT' || error.code === 'UND_ERR_BODY_TIMEOUT') return 'timed out';
  const cause = error.cause?.code ?? error.code;
  return cause ? `${error.message} (${cause})` : error.message;
}
