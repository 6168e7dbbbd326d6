/**
 * What the SDK throws. Every API error answer (`{code, message}` with a 4xx/5xx status) becomes a
 * `CloudApiError` subclass chosen by status and code, so callers can `instanceof` the case they
 * handle; anything that is not an answer of the platform has its own class.
 */
export class CloudError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Which API answered. */
export type CloudService = 'accounts' | 'nodes' | 'staking' | 'streams' | 'node-proxy';

/** An error answer of one of the platform's APIs. */
export class CloudApiError extends CloudError {
  constructor(
    readonly status: number,
    /** The runtime contract's PascalCase code, e.g. `LimitExceeded`. */
    readonly code: string,
    message: string,
    readonly service: CloudService,
    /** The `x-request-id` of the answer, for the operator's logs. */
    readonly requestId?: string,
    /** Seconds to wait before trying again, from a 429's `Retry-After`. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** 400: the request was wrong (`InvalidInput`). */
export class InvalidInputError extends CloudApiError {}
/** 401: no token, or a wrong, expired or revoked one; or wrong login credentials. */
export class UnauthorizedError extends CloudApiError {}
/**
 * 401 `TwoFactorRequired`: the password was right, and the account has two-factor login on; log
 * in again with `{ code }` (the authenticator app's code, or a recovery code).
 */
export class TwoFactorRequiredError extends UnauthorizedError {}
/** 403: not allowed (`Forbidden`, `UserNotVerified`, ...). */
export class ForbiddenError extends CloudApiError {}
/** 403 `LimitExceeded`: the account has as many of something as it may. */
export class LimitExceededError extends ForbiddenError {}
/** 404: no such thing of yours. */
export class NotFoundError extends CloudApiError {}
/** 409: the state forbids it (`Conflict`, `UserVerified`, ...). */
export class ConflictError extends CloudApiError {}
/** 429: too many tries; see `retryAfterSeconds`. */
export class TooManyRequestsError extends CloudApiError {}
/** 5xx: the platform failed; trying again later may work. */
export class ServerError extends CloudApiError {}

/** The class for an error answer. */
export function apiErrorClass(status: number, code: string): typeof CloudApiError {
  if (status === 400) return InvalidInputError;
  if (status === 401) return code === 'TwoFactorRequired' ? TwoFactorRequiredError : UnauthorizedError;
  if (status === 403) return code === 'LimitExceeded' ? LimitExceededError : ForbiddenError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 429) return TooManyRequestsError;
  if (status >= 500) return ServerError;
  return CloudApiError;
}

/**
 * The typed error for an error answer: its `{code, message}` when the body is the platform's
 * JSON, else the status and `fallbackMessage` (a gateway's HTML page, say).
 */
export function apiErrorFromAnswer(
  service: CloudService,
  status: number,
  body: unknown,
  fallbackMessage: string,
  details: { requestId?: string; retryAfterSeconds?: number } = {},
): CloudApiError {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as { code?: unknown; message?: unknown };
  const code = typeof fields.code === 'string' ? fields.code : `Http${status}`;
  const message = typeof fields.message === 'string' ? fields.message : fallbackMessage;
  const ErrorClass = apiErrorClass(status, code);
  return new ErrorClass(status, code, message, service, details.requestId, details.retryAfterSeconds);
}

/** The service could not be reached at all (refused, DNS, TLS, timeout): no answer came. */
export class UnreachableError extends CloudError {
  /** The system's code for the failure, e.g. ECONNREFUSED, ENOTFOUND, SELF_SIGNED_CERT_IN_CHAIN. */
  readonly reason?: string;

  constructor(
    readonly service: CloudService,
    readonly url: string,
    cause: unknown,
  ) {
    const { text, code } = describeCause(cause);
    super(`cannot reach the ${service} service at ${url}: ${text}`, { cause });
    this.reason = code;
  }

  /** The server's TLS certificate was not trusted (a dev proxy's self-signed one, say). */
  get untrustedCertificate(): boolean {
    return /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(this.reason ?? '');
  }
}

/** No session (never logged in, or logged out) where the call needs one. */
export class NotLoggedInError extends CloudError {}

/** A node or validator the caller waited for failed; `reason` is the platform's `stateReason`. */
export class ProvisioningFailedError extends CloudError {
  constructor(
    readonly id: string,
    readonly reason: string | null,
  ) {
    super(`${id} failed${reason ? `: ${reason}` : ''}`);
  }
}

/** Waiting for a node or validator took longer than allowed. */
export class WaitTimeoutError extends CloudError {
  constructor(
    readonly id: string,
    readonly lastState: string,
    timeoutMs: number,
  ) {
    super(`${id} is still ${lastState} after ${Math.round(timeoutMs / 1000)} s`);
  }
}

/** A JSON-RPC error answer of a node (including the proxy's refusals, e.g. -32601 not allowed). */
export class NodeRpcError extends CloudError {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/**
 * The innermost useful text of a fetch failure (undici wraps the socket error in `cause`). Duck
 * typed: the error may come from another realm, where `instanceof Error` is false.
 */
function describeCause(cause: unknown): { text: string; code?: string } {
  const isError = (value: unknown): value is { message: string; code?: unknown; cause?: unknown } =>
    typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string';
  let current = cause;
  while (isError(current) && isError(current.cause)) current = current.cause;
  if (!isError(current)) return { text: String(current) };
  const code = typeof current.code === 'string' ? current.code : undefined;
  return { text: code && !current.message.includes(code) ? `${code} ${current.message}` : current.message, code };
}
