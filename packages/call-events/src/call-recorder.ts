import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { match } from 'path-to-regexp';
import { BACKGROUND_HEADER, isDependencyUnavailable, unstorableTextProblem } from '@cloud/http';
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
// verification token) are never recorded, nor is a value no text column can hold (a NUL in the
// path): the call is recorded without it rather than lost.
const RESOURCE_PARAMS = ['id', 'nodeId', 'streamId'];

/**
 * The resource id of the call, from the route's parameters. When the handler failed, Express has
 * already reset `req.params` for the error handler, so the route pattern is matched against the
 * path again (path-to-regexp, the matcher Express itself uses).
 */
function resourceIdOf(req: Request): string | undefined {
  const pick = (params: Partial<Record<string, string | string[]>>) =>
    RESOURCE_PARAMS.map((name) => params[name]).find((value): value is string => typeof value === 'string' && unstorableTextProblem(value) === undefined);
  const found = pick((req.params ?? {}) as Record<string, string | undefined>);
  if (found !== undefined || typeof req.route?.path !== 'string') return found;
  try {
    const matched = match(req.baseUrl + (req.route.path as string))(new URL(req.originalUrl, 'http://localhost').pathname);
    return matched ? pick(matched.params) : undefined;
  } catch {
    return undefined; // a path that does not decode: no resource id rather than a lost event
  }
}

export interface CallRecorderOptions {
  service: string;
  sink: CallEventSink;
  logger: Logger;
  /** Milliseconds since the epoch; the service's clock, so tests can move it. */
  clock?: () => number;
  /**
   * How long an event whose write failed because the database could not be reached is tried again
   * (backing off from 100 ms to 5 s); past it, the event is dropped and logged. Default 2 minutes.
   */
  retryForMs?: number;
}

/** Events waiting to be written, at most; past it new ones are dropped (and logged), so an outage cannot exhaust memory. */
const MOST_WAITING = 10_000;
const FIRST_RETRY_MS = 100;
const LONGEST_RETRY_MS = 5_000;

/**
 * Records an event for every call that can be tied to a user, after the response has been sent,
 * so recording never slows or fails the call. Events are written one at a time, in the order the
 * responses finished, so the store's insertion order is the order of the calls. A write that fails
 * because the database is unreachable is tried again (the events behind it wait), so a call
 * answered just before an outage keeps its event. `drain()` waits
 * for responses still being sent and for the records still being written (graceful shutdown,
 * tests).
 */
export class CallRecorder {
  // Responses not yet closed: their 'finish' (and so their event) may still be to come.
  private readonly open = new Set<Promise<void>>();
  private writes: Promise<void> = Promise.resolve();
  private waiting = 0;

  constructor(private readonly options: CallRecorderOptions) {}

  readonly middleware: RequestHandler = (req, res, next) => {
    const startTime = this.now();
    let closed!: () => void;
    const open = new Promise<void>((resolve) => {
      closed = resolve;
    });
    this.open.add(open);
    res.once('finish', () => {
      const user = res.locals.userId;
      if (user) this.enqueue(this.eventOf(req, res, user, startTime));
    });
    // 'close' follows 'finish' for a completed response, and comes alone for an aborted one.
    res.once('close', () => {
      this.open.delete(open);
      closed();
    });
    next();
  };

  private eventOf(req: Request, res: Response, user: string, startTime: Date): CallEvent {
    const resourceId = resourceIdOf(req);
    const endTime = this.now();
    return {
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
      serviceData: {
        requestId: res.locals.requestId as string | undefined,
        // Only the mark itself, never another header's value: `1` says the client read on its own.
        ...(req.get(BACKGROUND_HEADER) === '1' ? { background: true } : {}),
      },
      createdAt: endTime.toISOString(),
    };
  }

  private now(): Date {
    return new Date(this.options.clock ? this.options.clock() : Date.now());
  }

  private enqueue(event: CallEvent): void {
    if (this.waiting >= MOST_WAITING) {
      this.options.logger.error('dropped a call event: too many are waiting for the database', { eventId: event.id, user: event.user, waiting: this.waiting });
      return;
    }
    this.waiting += 1;
    this.writes = this.writes
      .then(() => this.write(event))
      .catch((error: unknown) => {
        this.options.logger.error('could not record call event', { error, eventId: event.id, user: event.user });
      })
      .finally(() => {
        this.waiting -= 1;
      });
  }

  /** Writes one event, trying again while the database cannot be reached, up to `retryForMs`. */
  private async write(event: CallEvent): Promise<void> {
    const giveUpAt = Date.now() + (this.options.retryForMs ?? 120_000);
    for (let wait = FIRST_RETRY_MS; ; wait = Math.min(wait * 2, LONGEST_RETRY_MS)) {
      try {
        return await this.options.sink.record(event);
      } catch (error) {
        if (!isDependencyUnavailable(error) || Date.now() + wait > giveUpAt) throw error;
        if (wait === FIRST_RETRY_MS) this.options.logger.warn('the database cannot take a call event; trying again', { eventId: event.id, error });
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  /** Resolves once every response in flight has closed and every event recorded so far is written (or failed and logged). */
  async drain(): Promise<void> {
    while (this.open.size > 0) await Promise.all([...this.open]);
    await this.writes;
  }
}
