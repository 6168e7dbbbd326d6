import { requestWithClientToken } from './client-token';
import type { ApiClient, ApiRequest } from './http';
import type { SessionManager } from './session';
import type { CreateStreamRequest, DeletedStream, DeliveryAttempt, Stream, StreamEvent, UpdateStreamRequest } from './types';

/**
 * The streams API, called with the session's client access token: a node's (or pool's) new blocks,
 * reorgs and address activity POSTed to your URL in order, signed with the stream's secret
 * (`x-cloud-signature`), retried for a day, then kept as dead letters you can replay.
 */
export class StreamsApi {
  constructor(
    private readonly api: ApiClient,
    private readonly session: SessionManager,
  ) {}

  /** Creates a stream; the answer's `secret` (which signs its deliveries) is shown this once. */
  create(request: CreateStreamRequest): Promise<Stream> {
    return this.call({ method: 'POST', path: '/users/me/streams', body: request });
  }

  /** Your streams, oldest first, each with its cursor, queue and last delivery. */
  list(): Promise<Stream[]> {
    return this.call({ method: 'GET', path: '/users/me/streams' });
  }

  get(id: string): Promise<Stream> {
    return this.call({ method: 'GET', path: streamPath(id) });
  }

  /** Renames the stream or points it at another URL (checked as at creation). */
  update(id: string, request: UpdateStreamRequest): Promise<Stream> {
    return this.call({ method: 'PATCH', path: streamPath(id), body: request });
  }

  /** Neither scanned nor delivered until resumed (nothing is skipped). */
  pause(id: string): Promise<Stream> {
    return this.call({ method: 'POST', path: `${streamPath(id)}/pause` });
  }

  /** Goes on where it stopped; a batch waiting for its retry is tried at once. */
  resume(id: string): Promise<Stream> {
    return this.call({ method: 'POST', path: `${streamPath(id)}/resume` });
  }

  /** A new signing secret, in the answer's `secret` only. */
  rotateSecret(id: string): Promise<Stream> {
    return this.call({ method: 'POST', path: `${streamPath(id)}/secret` });
  }

  /** Sends a signed `test` event to the URL now and answers the attempt. */
  test(id: string): Promise<DeliveryAttempt> {
    return this.call({ method: 'POST', path: `${streamPath(id)}/test` });
  }

  /** The delivery log, newest first (default 100, at most 1000). */
  deliveries(id: string, limit?: number): Promise<DeliveryAttempt[]> {
    return this.call({ method: 'GET', path: `${streamPath(id)}/deliveries`, query: { limit } });
  }

  /** Events parked after failing for the retry period, oldest first. */
  deadLetters(id: string, limit?: number): Promise<StreamEvent[]> {
    return this.call({ method: 'GET', path: `${streamPath(id)}/dead-letters`, query: { limit } });
  }

  /** Delivers the dead letters again, with their ids, after what is pending. */
  replay(id: string): Promise<{ replayed: number }> {
    return this.call({ method: 'POST', path: `${streamPath(id)}/dead-letters/replay` });
  }

  /** Deletes the stream: nothing more is delivered. */
  remove(id: string): Promise<DeletedStream> {
    return this.call({ method: 'DELETE', path: streamPath(id) });
  }

  private call<T>(request: Omit<ApiRequest, 'auth'>): Promise<T> {
    return requestWithClientToken(this.api, this.session, request);
  }
}

function streamPath(id: string): string {
  return `/users/me/streams/${encodeURIComponent(id)}`;
}
