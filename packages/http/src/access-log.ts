import type { RequestHandler } from 'express';
import type { Logger } from '@cloud/logging';

/**
 * One `http` log line per request. It logs the route pattern, not the URL, because URLs can hold
 * secrets (the e-mail verification token travels in the path).
 */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      logger.http('request', {
        method: req.method,
        route: typeof req.route?.path === 'string' ? req.baseUrl + req.route.path : '(no route)',
        status: res.statusCode,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
      });
    });
    next();
  };
}
