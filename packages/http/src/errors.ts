/**
 * The errors a handler throws. Each carries its HTTP status and the `code` of the runtime
 * contract; the error handler turns any of them into `{code, message}`. A subclass fixes the
 * status, and a caller may give a more precise code (e.g. a 409 with code `UserVerified`).
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidInputError extends AppError {
  constructor(message: string, code = 'InvalidInput') {
    super(400, code, message);
  }
}

export class UnauthorizedError extends AppError {
  /** `challenge` becomes the WWW-Authenticate header, e.g. `Bearer realm="cloud"`. */
  constructor(message: string, challenge = 'Bearer realm="cloud"') {
    super(401, 'Unauthorized', message, { 'WWW-Authenticate': challenge });
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string, code = 'Forbidden') {
    super(403, code, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string, code = 'NotFound') {
    super(404, code, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code = 'Conflict') {
    super(409, code, message);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, 'TooManyRequests', message, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message: string, code = 'ServiceUnavailable', retryAfterSeconds = 5) {
    super(503, code, message, { 'Retry-After': String(retryAfterSeconds) });
  }
}
