import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '@cloud/logging';
import { AppError, NotFoundError } from './errors';

/** The body of every error response: `{code, message}`. */
export interface ErrorBody {
  code: string;
  message: string;
}

// body-parser marks its errors with `type` and `status`; these are the ones a client causes.
const BODY_PARSER_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  'entity.parse.failed': { status: 400, code: 'InvalidInput', message: 'the request body is not valid JSON' },
  'entity.too.large': { status: 413, code: 'PayloadTooLarge', message: 'the request body is too large' },
  'encoding.unsupported': { status: 415, code: 'UnsupportedMediaType', message: 'unsupported content encoding' },
  'charset.unsupported': { status: 415, code: 'UnsupportedMediaType', message: 'unsupported charset' },
  'request.aborted': { status: 400, code: 'InvalidInput', message: 'the request was aborted' },
};

export function toErrorResponse(error: unknown): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (error instanceof AppError) {
    return { status: error.status, body: { code: error.code, message: error.message }, headers: error.headers };
  }
  const type = (error as { type?: unknown } | null)?.type;
  const known = typeof type === 'string' ? BODY_PARSER_ERRORS[type] : undefined;
  if (known) return { status: known.status, body: { code: known.code, message: known.message }, headers: {} };
  return { status: 500, body: { code: 'InternalError', message: 'internal error' }, headers: {} };
}

/** The one place errors become responses. Unknown errors are logged once and answered 500 without details. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const { status, body, headers } = toErrorResponse(error);
    if (status >= 500) logger.error('request failed', { error, method: req.method, route: req.route?.path as unknown });
    res.status(status).set(headers).json(body);
  };
}

export const unknownRouteHandler: RequestHandler = (req, _res, next) => {
  next(new NotFoundError(`no route for ${req.method} ${req.path}`));
};
