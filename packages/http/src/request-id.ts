import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { runWithRequestContext } from '@cloud/logging';

const ACCEPTABLE_ID = /^[\w.:-]{1,128}$/;

/**
 * Takes the caller's `x-request-id` when it is a sane token (so a gateway's id follows the call
 * through every service), otherwise makes one; echoes it back and makes it visible to the logs.
 */
export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.get('x-request-id');
  const id = incoming && ACCEPTABLE_ID.test(incoming) ? incoming : randomUUID();
  res.locals.requestId = id;
  res.setHeader('x-request-id', id);
  runWithRequestContext({ requestId: id }, next);
};
