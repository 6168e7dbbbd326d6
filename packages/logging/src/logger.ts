import winston from 'winston';
import { redactSecrets } from './redact';
import { currentRequestContext } from './request-context';

export type LogLevel = 'error' | 'warn' | 'info' | 'http' | 'debug' | 'silent';
export type Logger = winston.Logger;

export interface LoggerOptions {
  service: string;
  level?: LogLevel;
  /** Where lines go; defaults to stdout. Tests pass a stream to read what was logged. */
  stream?: NodeJS.WritableStream;
}

// winston keeps the level and message under symbols; only the plain properties are metadata.
const redactMetadata = winston.format((info) => {
  const { level, message, ...meta } = info;
  const clean = redactSecrets(meta) as Record<string, unknown>;
  for (const key of Object.keys(meta)) delete info[key];
  Object.assign(info, clean, { level, message });
  return info;
});

const addRequestContext = winston.format((info) => {
  const context = currentRequestContext();
  if (context && info.requestId === undefined) info.requestId = context.requestId;
  return info;
});

/** JSON lines on stdout, one logger per service; `logger.child({...})` adds fields. */
export function createLogger({ service, level = 'info', stream }: LoggerOptions): Logger {
  return winston.createLogger({
    level: level === 'silent' ? 'error' : level,
    silent: level === 'silent',
    defaultMeta: { service },
    format: winston.format.combine(
      addRequestContext(),
      redactMetadata(),
      winston.format.timestamp(),
      winston.format.errors({ stack: true }),
      winston.format.json(),
    ),
    transports: [stream ? new winston.transports.Stream({ stream }) : new winston.transports.Console()],
  });
}
