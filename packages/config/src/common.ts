import path from 'node:path';
import { z } from 'zod';

/** Variables every service reads; each service's schema extends this one. */
export const commonEnvironment = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['error', 'warn', 'info', 'http', 'debug', 'silent']).default('info'),
  // A relative DATA_DIR is taken from where npm was run (INIT_CWD), so `npm start` and
  // `npm start -w services/<name>` from the repository root both use the root's ./.data.
  DATA_DIR: z
    .string()
    .default('./.data')
    .transform((dir) => path.resolve(process.env.INIT_CWD ?? process.cwd(), dir)),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
  /** RabbitMQ; unset means the in-process bus (services sharing one process). */
  AMQP_URL: z.url({ protocol: /^amqps?$/, error: 'must be an amqp:// or amqps:// URL' }).optional(),
  /** Prefix of the exchange and queue names, so several installations can share one broker. */
  AMQP_PREFIX: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/, 'lower-case letters, digits, ".", "_" and "-"')
    .default('cloud'),
});

export type CommonEnvironment = z.infer<typeof commonEnvironment>;

/** A TCP port number from the environment (a string of digits); 0 lets the system pick a free port. */
export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/** A positive whole number from the environment. */
export const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** "true"/"false" (or 1/0, yes/no) from the environment. */
export const booleanFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((value) => (value === undefined ? fallback : ['true', '1', 'yes'].includes(value)));

/** Variables of every service that serves an HTTP API from its own database (all but the proxy). */
export const apiServiceEnvironment = commonEnvironment.extend({
  /** Apply pending migrations at start; turn off where a separate job runs `npm run migrate`. */
  RUN_MIGRATIONS: booleanFlag(true),
  BODY_LIMIT: z.string().default('100kb'),
  DATABASE_POOL_MAX: positiveInt(10),
  /** Express "trust proxy": set when an ingress or gateway sits in front, so client addresses are right. */
  TRUST_PROXY: booleanFlag(false),
  /** Web origins whose pages may call the API (CORS), comma-separated; empty: none. */
  CORS_ORIGINS: originList(),
});

/**
 * A comma-separated list of web origins (`https://console.example.com`, `http://127.0.0.1:3000`):
 * scheme, host and port only, as a browser sends them in `Origin`, so they are compared exactly.
 */
export function originList() {
  return z
    .string()
    .default('')
    .transform((value, context) => {
      const origins = value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
      for (const origin of origins) {
        if (originOf(origin) !== origin) {
          context.addIssue({
            code: 'custom',
            message: `${JSON.stringify(origin)} is not an origin: scheme://host[:port], lower case, no path or trailing slash`,
          });
          return z.NEVER;
        }
      }
      return origins;
    });
}

function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return ['http:', 'https:'].includes(url.protocol) ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
