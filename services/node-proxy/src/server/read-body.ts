import type { IncomingMessage } from 'node:http';
import { AppError } from '@cloud/http';

/** The request body's bytes, refusing (413) anything over `limit` bytes without buffering it. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (Number(req.headers['content-length']) > limit) return Promise.reject(tooLarge(limit));
  // Plain events rather than `for await`: this runs on every call, and the async iterator costs more.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.pause();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    req.on('error', reject);
  });
}

function tooLarge(limit: number): AppError {
  // The rest of the body is not read: the connection closes after the answer.
  return new AppError(413, 'PayloadTooLarge', `the request body is over the limit of ${limit} bytes`, { connection: 'close' });
}
