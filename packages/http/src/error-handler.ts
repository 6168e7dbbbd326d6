import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '@cloud/logging';
import { DEPENDENCY_RETRY_AFTER_SECONDS, isDependencyUnavailable } from './dependency-errors';
import { AppError, NotFoundError } from './errors';
import { MAX_BODY_DEPTH } from './json-depth';

/** The body of every error response: `{code, message}`. */
export interface ErrorBody {
  code: string;
  message: string;
}

// body-parser marks its errors with `type` and `status`; these are the ones a client causes.
const BODY_PARSER_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  'entity.parse.failed': { status: 400, code: 'InvalidInput', message: 'the request body is not valid JSON' },
  'entity.too.large': { status: 413, code: 'PayloadTooLarge', message: 'the request body is too large' },
  // Ours (json-depth.ts), raised in the parser's verify step.
  'entity.too.deep': { status: 400, code: 'InvalidInput', message: `the request body nests deeper than ${MAX_BODY_DEPTH} levels of [ and {` },
  'encoding.unsupported': { status: 415, code: 'UnsupportedMediaType', message: 'unsupported content encoding' },
  'charset.unsupported': { status: 415, code: 'UnsupportedMediaType', message: 'unsupported charset' },
  'request.aborted': { status: 400, code: 'InvalidInput', message: 'the request was aborted' },
};

// Other client errors raised by Express or its parts carry a 4xx `status`; their own messages may
// hold internals, so they are answered with the status's generic one.
const CLIENT_ERRORS: Record<number, { code: string; message: string }> = {
  400: { code: 'InvalidInput', message: 'the request is malformed' },
  404: { code: 'NotFound', message: 'not found' },
  405: { code: 'MethodNotAllowed', message: 'method not allowed' },
  413: { code: 'PayloadTooLarge', message: 'the request body is too large' },
  415: { code: 'UnsupportedMediaType', message: 'unsupported media type' },
};

export function toErrorResponse(error: unknown): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (error instanceof AppError) {
    return { status: error.status, body: { code: error.code, message: error.message }, headers: error.headers };
  }
  const { type, status } = (error ?? {}) as { type?: unknown; status?: unknown };
  const known = typeof type === 'string' ? BODY_PARSER_ERRORS[type] : undefined;
  if (known) return { status: known.status, body: { code: known.code, message: known.message }, headers: {} };
  // The router's failure to decode a path parameter such as /users/%ZZ.
  if (error instanceof URIError) {
    return { status: 400, body: { code: 'InvalidInput', message: 'the request path is not valid percent-encoding' }, headers: {} };
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const generic = CLIENT_ERRORS[status] ?? { code: 'InvalidInput', message: 'the request was refused' };
    return { status, body: { ...generic }, headers: {} };
  }
  if (isDependencyUnavailable(error)) {
    return {
      status: 503,
      body: { code: 'ServiceUnavailable', message: 'a service this one depends on is unavailable; try again shortly' },
      headers: { 'Retry-After': String(DEPENDENCY_RETRY_AFTER_SECONDS) },
    };
  }
  return { status: 500, body: { code: 'InternalError', message: 'internal error' }, headers: {} };
}

/**
 * The one place errors become responses. Unknown errors are logged once and answered 500 without
 * details; a dependency outage (503) is logged as a warning, since it is expected and not a bug.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const { status, body, headers } = toErrorResponse(error);
    if (status === 503) logger.warn('request failed: a dependency is unavailable', { error, method: req.method, route: req.route?.path as unknown });
    else if (status >= 500) logger.error('request failed', { error, method: req.method, route: req.route?.path as unknown });
    res.status(status).set(headers).json(body);
  };
}

export const unknownRouteHandler: RequestHandler = (req, _res, next) => {
  next(new NotFoundError(`no route for ${req.method} ${req.path}`));
};
