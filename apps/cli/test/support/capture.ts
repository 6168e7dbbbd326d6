import { Writable } from 'node:stream';
import type { Output } from '../../src/output';

/** A stream that keeps what is written to it (synchronously, so tests can look at once). */
export class TextSink extends Writable {
  text = '';
  constructor(readonly isTTY = false) {
    super({ write: (chunk: Buffer, _encoding, done) => ((this.text += chunk.toString()), done()) });
  }
}

/** An Output whose stdout and stderr are kept apart for assertions. */
export function captureOutput(json = false): { o: Output; out: TextSink; err: TextSink } {
  const out = new TextSink();
  const err = new TextSink();
  return { o: { json, out, err }, out, err };
}
