export { createLogger } from './logger';
export type { Logger, LoggerOptions, LogLevel } from './logger';
export { REDACTED, redactSecrets } from './redact';
export { currentRequestContext, runOutsideRequestContext, runWithRequestContext } from './request-context';
export type { RequestContext } from './request-context';
