/**
 * Why the node gave no answer the caller can have, as the caller is told: 502 (unreachable, or an
 * answer the proxy would not pass on: `code`) or 504 (too slow).
 */
export class UpstreamError extends Error {
  readonly code: string;

  /**
   * @param unsent nothing of the request reached the node (the connection was refused or never
   * made): a pool may send even a write to another member.
   */
  constructor(
    readonly status: 502 | 504,
    message: string,
    code?: string,
    readonly unsent = false,
  ) {
    super(message);
    this.code = code ?? (status === 504 ? 'GatewayTimeout' : 'BadGateway');
  }
}

/**
 * A node's 5xx answer held back from the caller of a pool (`AnswerReview.refuse`), so that the
 * call can be retried on another member; told as a 502 if it ever reaches a caller.
 */
export class HeldFailureError extends UpstreamError {
  constructor(readonly nodeStatus: number) {
    super(502, `the node answered HTTP ${nodeStatus}`);
  }
}
