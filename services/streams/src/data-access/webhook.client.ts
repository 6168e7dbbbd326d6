import type { LookupFunction } from 'node:net';
import { Agent, request } from 'undici';

/** What one POST gave: a status code when the receiver answered, else the error. */
export interface WebhookResult {
  statusCode: number | null;
  latencyMs: number;
  /** The answer's first bytes for a non-2xx, or the network/timeout error; null when delivered. */
  error: string | null;
}

/** Where to POST: the URL and the address checked for it (the domain's CheckedTarget). */
export interface PinnedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

const ANSWER_LIMIT = 4096;

/**
 * POSTs a delivery to a checked target: the connection goes to the checked address (a new DNS
 * answer cannot move it; TLS name and Host stay the URL's), redirects are not followed, the whole
 * exchange is bounded by the timeout and at most 4 KiB of the answer is read.
 */
export class WebhookClient {
  constructor(private readonly timeoutMs: number) {}

  async post(target: PinnedTarget, body: string, headers: Record<string, string>): Promise<WebhookResult> {
    const pinned: LookupFunction = (_host, options, callback) => {
      if (options.all)
        (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address: target.address, family: target.family }]);
      else callback(null, target.address, target.family);
    };
    const agent = new Agent({ connect: { lookup: pinned, timeout: this.timeoutMs }, pipelining: 0 });
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    try {
      const answer = await request(target.url, {
        method: 'POST',
        body,
        headers,
        dispatcher: agent,
        signal: AbortSignal.timeout(this.timeoutMs),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      // Dropping the answer early aborts it: that error is expected, not a failure.
      answer.body.on('error', () => undefined);
      const statusCode = answer.statusCode;
      const latencyMs = latency();
      if (statusCode >= 200 && statusCode < 300) {
        answer.body.destroy();
        return { statusCode, latencyMs, error: null };
      }
      return { statusCode, latencyMs, error: `HTTP ${statusCode}${await firstBytes(answer.body)}` };
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError' || (error as { code?: string }).code?.includes('TIMEOUT');
      return { statusCode: null, latencyMs: latency(), error: timedOut ? `no answer within ${this.timeoutMs} ms` : (error as Error).message };
    } finally {
      agent.destroy().catch(() => undefined);
    }
  }
}

/** Up to 4 KiB of the answer (as text, after ": "), then the rest is dropped with the connection. */
async function firstBytes(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= ANSWER_LIMIT) break;
    }
  } catch {
    // a cut answer still gives what came
  } finally {
    body.destroy();
  }
  const text = Buffer.concat(chunks).subarray(0, ANSWER_LIMIT).toString('utf8').trim();
  return text ? `: ${text}` : '';
}
