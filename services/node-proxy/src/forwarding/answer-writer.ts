import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import type { NodeErrorScan } from '../usage/node-error-scan';
import { AnswerTooLargeError, type AnswerLimit } from './answer-limit';

/**
 * Lets the caller of a forward judge some of the node's answers whole before anything is sent:
 * an answer whose status `holds` is read (up to HELD_BYTES_MAX) and `replace` may answer the
 * caller otherwise (a node busy or warming up: `json-rpc/node-unavailable.ts`).
 */
export interface AnswerReview {
  holds(status: number): boolean;
  replace(status: number, body: Buffer): { status: number; headers: Record<string, string>; text: string } | undefined;
  /**
   * A held answer the caller must not get at all: the forward fails with this error instead, and
   * nothing is written (a pool retries the call on another member).
   */
  refuse?(status: number, body: Buffer): Error | undefined;
}

// An error page or a JSON-RPC error is small: anything longer is passed on as it comes.
const HELD_BYTES_MAX = 64 * 1024;

/** How a forwarded call ended: the answer's size once written, or why there was none. */
export type AnswerOutcome = { ok: true; size: number } | { ok: false; refusedLogin: true } | { ok: false; error: Error };

/**
 * undici's dispatch handler for a forwarded call: writes the node's answer straight into the
 * caller's response (status, content type and length only) as it arrives, counting its bytes and
 * feeding each chunk to `scan`. It is what `pool.stream()` did with a Writable, without the
 * stream, the async resource and the end-of-stream watcher `stream()` adds to every call.
 *
 * Back-pressure: when the caller's socket is full the node's answer is paused until it drains;
 * a caller that goes away meanwhile aborts the call. A 401/403 from the node (it refused the
 * proxy's own login) is not passed on: the caller gets a 502 instead.
 *
 * An answer over the node's bound (`limit`) is stopped: one whose length the node announces
 * (anvil, geth, Bitcoin and Litecoin Core, avalanchego all do), or one held for review, before
 * anything is written, so the caller can be told why; one sent in chunks once it passes the
 * bound, by cutting the connection (its status line is out already).
 */
export class AnswerWriter implements Dispatcher.DispatchHandler {
  private size = 0;
  private refusedLogin = false;
  /** The answer under review: its status and headers, and what came of it so far. */
  private held: { status: number; headers: IncomingHttpHeaders; chunks: Buffer[]; bytes: number } | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly scan: NodeErrorScan | undefined,
    private readonly limit: AnswerLimit,
    private readonly done: (outcome: AnswerOutcome) => void,
    private readonly review?: AnswerReview,
  ) {}

  // Marks this as a handler of undici's current API (controller first), not its deprecated one.
  onRequestStart(): void {}

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (statusCode === 401 || statusCode === 403) {
      this.refusedLogin = true;
      return;
    }
    const contentLength = headers['content-length'];
    const announced = typeof contentLength === 'string' ? Number(contentLength) : undefined;
    if (announced !== undefined && announced > this.limit.bytes) return controller.abort(new AnswerTooLargeError(this.limit, announced));
    if (this.review?.holds(statusCode)) {
      this.held = { status: statusCode, headers, chunks: [], bytes: 0 };
      return;
    }
    this.writeHead(statusCode, headers);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.refusedLogin) return;
    if (this.held) {
      this.held.chunks.push(chunk);
      this.held.bytes += chunk.length;
      if (this.held.bytes > this.limit.bytes) return controller.abort(new AnswerTooLargeError(this.limit));
      if (this.held.bytes <= HELD_BYTES_MAX) return;
      chunk = this.release(this.held);
    }
    this.size += chunk.length;
    if (this.size > this.limit.bytes) {
      this.res.destroy();
      return controller.abort(new AnswerTooLargeError(this.limit));
    }
    this.scan?.feed(chunk);
    if (this.res.write(chunk)) return;
    // Gone already ('close' has fired): nothing would ever resume the call.
    if (this.res.destroyed) return controller.abort(new Error('the caller closed the connection'));
    controller.pause();
    const onDrain = () => {
      this.res.off('close', onClose);
      controller.resume();
    };
    const onClose = () => {
      this.res.off('drain', onDrain);
      controller.abort(new Error('the caller closed the connection'));
    };
    this.res.once('drain', onDrain);
    this.res.once('close', onClose);
  }

  onResponseEnd(): void {
    if (this.refusedLogin) return this.done({ ok: false, refusedLogin: true });
    if (this.held) {
      const body = Buffer.concat(this.held.chunks);
      const refused = this.review!.refuse?.(this.held.status, body);
      if (refused) return this.done({ ok: false, error: refused });
      const replacement = this.review!.replace(this.held.status, body);
      const text = replacement ? Buffer.from(replacement.text) : this.release(this.held);
      if (replacement) this.res.writeHead(replacement.status, { ...replacement.headers, 'content-length': text.length });
      this.scan?.feed(text);
      this.size += text.length;
      this.res.end(text);
    } else {
      this.res.end();
    }
    this.done({ ok: true, size: this.size });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.done({ ok: false, error });
  }

  /** Passes a held answer on as the node gave it: its head now, and what was held as the next chunk. */
  private release(held: NonNullable<AnswerWriter['held']>): Buffer {
    this.held = undefined;
    this.writeHead(held.status, held.headers);
    return Buffer.concat(held.chunks);
  }

  private writeHead(statusCode: number, headers: IncomingHttpHeaders): void {
    const contentType = headers['content-type'];
    const contentLength = headers['content-length'];
    this.res.writeHead(statusCode, {
      ...(typeof contentType === 'string' ? { 'content-type': contentType } : {}),
      ...(typeof contentLength === 'string' ? { 'content-length': contentLength } : {}),
    });
  }
}
