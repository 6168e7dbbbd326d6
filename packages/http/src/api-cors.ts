import cors from 'cors';
import type { RequestHandler } from 'express';

/**
 * Marks a request as a client's own background read (a page's load or refresh, a wait's polling),
 * not an action of the person: `x-cloud-background: 1`. The services record it in the call's
 * event (`serviceData.background`), and the events list can leave such calls out.
 */
export const BACKGROUND_HEADER = 'X-Cloud-Background';

/**
 * CORS for an API, for the web origins the operator allows (`CORS_ORIGINS`): a page of such an
 * origin may call it with a bearer token or Basic credentials (sent in `Authorization`, never as
 * cookies, so no `Access-Control-Allow-Credentials`). Any other origin gets no `Access-Control-*`
 * header, so the browser keeps the answer from the page. `Vary: Origin` either way, for caches.
 */
export function apiCors(origins: readonly string[]): RequestHandler {
  return cors({
    // Compared exactly; the list form (not a function) is what makes cors send Vary for refused origins too.
    origin: [...origins],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', BACKGROUND_HEADER],
    // What a page needs to read besides the body: where to wait, the id to quote in a report.
    exposedHeaders: ['Retry-After', 'X-Request-Id', 'WWW-Authenticate'],
    maxAge: 600,
    optionsSuccessStatus: 204,
  });
}
