import { UpstreamError } from './upstream-error';

/** A node's answer bound: the owner's (`maxAnswerBytes` in its access rules) or the operator's. */
export interface AnswerLimit {
  bytes: number;
  setBy: 'platform' | 'accessRule';
}

/** The bound in words: "this node's limit of 4096 bytes" (its owner's) or "the platform's limit of …". */
export function limitInWords(limit: AnswerLimit): string {
  return `${limit.setBy === 'accessRule' ? "this node's" : "the platform's"} limit of ${limit.bytes} bytes`;
}

/**
 * The node's answer was over its bound and was not passed on: whole when its length was
 * announced (`size`), else cut once it passed the bound.
 */
export class AnswerTooLargeError extends UpstreamError {
  constructor(
    readonly limit: AnswerLimit,
    readonly size?: number,
  ) {
    super(
      502,
      `the node's answer${size === undefined ? '' : ` (${size} bytes)`} is larger than ${limitInWords(limit)}; ask for less (a narrower range, fewer calls in a batch)`,
      'AnswerTooLarge',
    );
  }
}
