/**
 * Why the node gave no answer the caller can have, as the caller is told: 502 (unreachable, or an
 * answer the proxy would not pass on: `code`) or 504 (too slow).
 */
export class UpstreamError extends Error {
  readonly code: string;

  constructor(
    readonly status: 502 | 504,
    message: string,
    code?: string,
  ) {
    super(message);
    this.code = code ?? (status === 504 ? 'GatewayTimeout' : 'BadGateway');
  }
}
