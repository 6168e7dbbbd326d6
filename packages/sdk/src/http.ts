import { basicAuthorization } from './encoding';
import { apiErrorFromAnswer, UnreachableError, type CloudApiError, type CloudService } from './errors';

// The one place the SDK talks HTTP to the platform's APIs: fetch, JSON in and out, and error
// answers turned into typed errors.

export type Credentials = { bearer: string } | { basic: { user: string; password: string } };

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  auth?: Credentials;
  /** A read the client makes on its own (a wait's polling), not an action of the person: sent with BACKGROUND_HEADER. */
  background?: boolean;
}

/**
 * Marks a call as the client's own background read (`x-cloud-background: 1`): the platform notes
 * it in the call's event, and the events list leaves such calls out with `background: 'false'`,
 * so a person's own actions are not drowned by a page's refreshes.
 */
export const BACKGROUND_HEADER = 'x-cloud-background';

export interface HttpOptions {
  /** fetch to use (tests, proxies); the global one by default. */
  fetch?: typeof fetch;
  /** Give up on a call after this long; default 30 s. */
  timeoutMs?: number;
  /**
   * Which calls are the client's own background reads (besides those the SDK marks itself, like a
   * wait's polling): the web console says every GET, the reads that show and refresh its pages.
   */
  background?: (request: ApiRequest) => boolean;
}

export class ApiClient {
  private readonly send: typeof fetch;
  private readonly timeoutMs: number;
  private readonly background: (request: ApiRequest) => boolean;

  constructor(
    readonly service: CloudService,
    readonly baseUrl: string,
    options: HttpOptions = {},
  ) {
    // Called as a plain function, never as a method of this client: a browser's fetch throws
    // "Illegal invocation" when called on anything but the window.
    const given = options.fetch;
    this.send = given ? (input, init) => given(input, init) : (input, init) => globalThis.fetch(input, init);
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.background = options.background ?? (() => false);
  }

  /** The answer's JSON body (undefined for 204), or a CloudApiError / UnreachableError. */
  async request<T>(request: ApiRequest): Promise<T> {
    const url = new URL(this.baseUrl.replace(/\/+$/, '') + request.path);
    for (const [name, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (request.auth && 'bearer' in request.auth) headers.authorization = `Bearer ${request.auth.bearer}`;
    if (request.background === true || this.background(request)) headers[BACKGROUND_HEADER] = '1';
    if (request.auth && 'basic' in request.auth) {
      headers.authorization = basicAuthorization(request.auth.basic.user, request.auth.basic.password);
    }
    let response: Response;
    let text: string;
    try {
      response = await this.send(url, {
        method: request.method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw new UnreachableError(this.service, this.baseUrl, error);
    }
    if (response.ok) return (text ? JSON.parse(text) : undefined) as T;
    throw errorFromAnswer(this.service, response, text);
  }
}

function errorFromAnswer(service: CloudService, response: Response, text: string): CloudApiError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Not the platform's JSON: the status line says what there is to say.
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  return apiErrorFromAnswer(service, response.status, body, `${response.status} ${response.statusText}`.trim(), {
    requestId: response.headers.get('x-request-id') ?? undefined,
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  });
}
