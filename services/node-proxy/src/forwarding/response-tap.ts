import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import type { NodeErrorScan } from '../usage/node-error-scan';

/**
 * Writes a node's answer into the caller's response, counting its bytes (for usage) and feeding
 * each chunk to `scan`: one Writable per call, lighter than a PassThrough piped into the response.
 * It waits for the response to drain as `pipe` would, and fails if the caller goes away meanwhile.
 */
export class ResponseTap extends Writable {
  size = 0;

  constructor(
    private readonly res: ServerResponse,
    private readonly scan?: NodeErrorScan,
  ) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.size += chunk.length;
    this.scan?.feed(chunk);
    if (this.res.write(chunk)) return done();
    const onDrain = () => {
      this.res.off('close', onClose);
      done();
    };
    const onClose = () => {
      this.res.off('drain', onDrain);
      done(new Error('the caller closed the connection'));
    };
    this.res.once('drain', onDrain);
    this.res.once('close', onClose);
  }

  override _final(done: (error?: Error | null) => void): void {
    this.res.end();
    done();
  }
}
