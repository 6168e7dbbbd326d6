import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/** What a request arriving after the shutdown began is told: retry, at another replica. */
const SHUTTING_DOWN = JSON.stringify({ code: 'ServiceUnavailable', message: 'this server is shutting down; try again' });
const RETRY_AFTER_SECONDS = 1;

/**
 * The requests a server is answering, for a shutdown that lets them finish. Once `start`ed, a new
 * request is answered 503 at once (with `Retry-After` and `Connection: close`, so the client
 * neither waits nor reuses the connection), while the listener stays open: a load balancer still
 * sending here for a moment gets an answer it can retry elsewhere instead of a refused or reset
 * connection. The requests in flight then finish, whatever they wait for (a query, bcrypt work
 * queued in the thread pool, an e-mail), each answered with `Connection: close`.
 */
export class RequestDrain {
  private readonly inFlight = new Set<ServerResponse>();
  private draining = false;
  private settledNow: (() => void) | undefined;

  /** `handler`, counting its requests while serving and refusing new ones while draining. */
  wrap(handler: RequestListener): RequestListener {
    return (request: IncomingMessage, response: ServerResponse) => {
      if (this.draining) return refuse(response);
      this.inFlight.add(response);
      response.once('close', () => {
        this.inFlight.delete(response);
        if (this.draining && this.inFlight.size === 0) this.settledNow?.();
      });
      handler(request, response);
    };
  }

  /**
   * Starts draining; resolves true once every request in flight has been answered, or false when
   * `graceMs` passed first (the caller then closes their connections).
   */
  async drain(graceMs: number): Promise<boolean> {
    this.draining = true;
    for (const response of this.inFlight) if (!response.headersSent) response.setHeader('Connection', 'close');
    if (this.inFlight.size === 0) return true;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), graceMs);
      this.settledNow = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }

  get size(): number {
    return this.inFlight.size;
  }
}

function refuse(response: ServerResponse): void {
  response.writeHead(503, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(SHUTTING_DOWN),
    'Retry-After': String(RETRY_AFTER_SECONDS),
    Connection: 'close',
  });
  response.end(SHUTTING_DOWN);
}
