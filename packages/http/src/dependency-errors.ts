/** What a client is told to wait before trying again while a dependency is down. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

// Socket errors of a driver that cannot reach its server (pg, amqplib: Node's own codes).
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// PostgreSQL SQLSTATEs of a server going away or not taking connections: admin_shutdown,
// crash_shutdown, cannot_connect_now (starting or shutting down), too_many_connections. Class 08
// (connection exception) is matched by its prefix.
const POSTGRES_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
// Errors that carry no code: pg's on a dropped or closed connection, knex's when no pooled
// connection could be had in time, PGlite's once closed.
const MESSAGES = [
  /Connection terminated/i,
  /Client has encountered a connection error/i,
  /Client was closed and is not queryable/i,
  /Timeout acquiring a connection/i,
  /PGlite is closed/i,
];

/**
 * Whether an error says a dependency (the database, through pg, knex or PGlite) could not be
 * reached, rather than that the request or the code is wrong: answered 503 with `Retry-After`,
 * not 500. Looks through `cause` and an AggregateError's `errors` (Node's connect to several
 * addresses).
 */
export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, name, message, errors, cause } = error as { code?: unknown; name?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || POSTGRES_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (name === 'KnexTimeoutError') return true;
  if (typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (Array.isArray(errors) && errors.some((inner) => isDependencyUnavailable(inner, depth + 1))) return true;
  return isDependencyUnavailable(cause, depth + 1);
}
