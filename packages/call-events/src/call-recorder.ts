import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { Logger } from '@cloud/logging';
import type { CallEvent, CallEventSink } from './call-event';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** The user the call belongs to, once known; calls without one are not recorded. */
      userId?: string;
    }
  }
}

/** Ties the current call to a user, for calls that identify one without a bearer token (login, sign-up). */
export function attributeCallTo(res: Response, userId: string): void {
  res.locals.userId = userId;
}

// Route parameters that name the resource a call is about. Other parameters (like the e-mail
// verification token) are never recorded.
const RESOURCE_PARAMS = ['id', 'nodeId'];

export interface CallRecorderOptions {
  service: string;
  sink: CallEventSink;
  logger: Logger;
}

/**
 * Records an event for every call that can be tied to a user, after the response has been sent,
 * so recording never slows or fails the call. `drain()` waits for the records still being
 * written (graceful shutdown, tests).
 */
export class CallRecorder {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly options: CallRecorderOptions) {}

  readonly middleware: RequestHandler = (req, res, next) => {
    const startTime = new Date();
    res.on('finish', () => {
      const user = res.locals.userId;
      if (!user) return;
      const params = (req.params ?? {}) as Record<string, string | undefined>;
      const resourceId = RESOURCE_PARAMS.map((name) => params[name]).find((value) => value !== undefined);
      const endTime = new Date();
      const event: CallEvent = {
        id: `event-${randomUUID()}`,
        user,
        service: this.options.service,
        input: {
          method: req.method,
          ...(typeof req.route?.path === 'string' ? { route: req.baseUrl + req.route.path } : {}),
          ...(resourceId === undefined ? {} : { resourceId }),
        },
        output: {
          startTime: startTime.toISOString(),
          endTime: endTime.toISOString(),
          httpStatusCode: res.statusCode,
          bytesOut: Number(res.getHeader('content-length') ?? 0),
        },
        serviceData: { requestId: res.locals.requestId as string | undefined },
        createdAt: endTime.toISOString(),
      };
      setImmediate(() => this.write(event));
    });
    next();
  };

  private write(event: CallEvent): void {
    const writing = this.options.sink
      .record(event)
      .catch((error: unknown) => {
        this.options.logger.error('could not record call event', { error, eventId: event.id, user: event.user });
      })
      .finally(() => this.pending.delete(writing));
    this.pending.add(writing);
  }

  /** Resolves once every event recorded so far has been written (or failed and been logged). */
  async drain(): Promise<void> {
    // Events of responses that just finished are queued with setImmediate; let them start first.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
