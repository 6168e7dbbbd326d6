import type { IncomingHttpHeaders } from 'node:http';

// The checks a browser makes on a cross-origin request, as the Fetch standard writes them
// (https://fetch.spec.whatwg.org/#cors-preflight-fetch, #cors-check), for requests whose
// credentials mode is not "include" (a page sending its own Authorization header).

const list = (value: string | string[] | undefined): string[] =>
  (Array.isArray(value) ? value.join(',') : (value ?? ''))
    .split(',')
    .map((each) => each.trim())
    .filter(Boolean);

/** The CORS check: Access-Control-Allow-Origin is `*` or the request's origin, byte for byte. */
export function corsCheck(headers: IncomingHttpHeaders, origin: string): boolean {
  const allowed = headers['access-control-allow-origin'];
  if (allowed === undefined || Array.isArray(allowed)) return false;
  return allowed === '*' || allowed === origin;
}

/**
 * A CORS-preflight fetch succeeds when the response passes the CORS check, its status is ok
 * (200-299), its methods include the request's (unless CORS-safelisted), and its headers name
 * every header the request sets that is not CORS-safelisted (`authorization` is never covered by
 * `*`; a JSON `content-type` is not safelisted). Returns why it fails, or undefined.
 */
export function preflightFailure(
  status: number,
  headers: IncomingHttpHeaders,
  request: { origin: string; method: string; headers: string[] },
): string | undefined {
  if (!corsCheck(headers, request.origin)) return 'the CORS check fails';
  if (status < 200 || status > 299) return `status ${status} is not ok`;
  const methods = list(headers['access-control-allow-methods']);
  const safelisted = ['GET', 'HEAD', 'POST'].includes(request.method);
  if (!safelisted && !methods.includes(request.method) && !methods.includes('*')) return `method ${request.method} is not allowed`;
  const allowedHeaders = list(headers['access-control-allow-headers']).map((name) => name.toLowerCase());
  for (const name of request.headers.map((each) => each.toLowerCase())) {
    const wildcard = allowedHeaders.includes('*') && name !== 'authorization';
    if (!allowedHeaders.includes(name) && !wildcard) return `header ${name} is not allowed`;
  }
  return undefined;
}
