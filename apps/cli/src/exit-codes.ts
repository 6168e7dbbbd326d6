/**
 * How a failed command ends: one table from error class to exit code and message, so every
 * command fails the same way and scripts can branch on `$?` without parsing text.
 *
 * | code | meaning                                                                  |
 * |------|--------------------------------------------------------------------------|
 * |    0 | success                                                                  |
 * |    1 | anything unexpected; the platform failed (5xx); a node's JSON-RPC error  |
 * |    2 | bad usage: wrong arguments (found by the CLI, or a 400 of the platform)  |
 * |    3 | not logged in, or the session was refused (401): run `cloud login`       |
 * |    4 | forbidden (403), including an account limit reached                      |
 * |    5 | not found (404)                                                          |
 * |    6 | conflict (409): the thing's state does not allow it                      |
 * |    7 | too many requests (429): wait and try again                              |
 * |    8 | the platform could not be reached                                        |
 * |    9 | a node or validator waited for failed to provision                       |
 * |   10 | waiting for a node or validator timed out                                |
 * |  130 | cancelled (Ctrl-C at a prompt)                                           |
 */
import {
  CloudApiError,
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  LimitExceededError,
  NodeRpcError,
  NotFoundError,
  NotLoggedInError,
  ProvisioningFailedError,
  ServerError,
  TooManyRequestsError,
  TwoFactorRequiredError,
  UnauthorizedError,
  UnreachableError,
  WaitTimeoutError,
} from '@cloud/sdk';
import { ConfigFileError } from './config-store';
import type { Output } from './output';
import { printJson } from './output';

/** Arguments the CLI itself finds wrong (missing, malformed, contradictory). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The user cancelled (Ctrl-C at a prompt). */
export class CancelledError extends Error {
  constructor(message = 'cancelled') {
    super(message);
    this.name = 'CancelledError';
  }
}

export interface Failure {
  exitCode: number;
  message: string;
  /** PascalCase: the platform's own code for its error answers, ours for the rest. */
  code: string;
  /** The HTTP status of a platform error answer. */
  status?: number;
}

interface Rule {
  matches(error: unknown): boolean;
  describe(error: unknown): Failure;
}

function rule<E extends Error>(type: abstract new (...args: never[]) => E, exitCode: number, describe: (error: E) => { code: string; message: string }): Rule {
  return {
    matches: (error) => error instanceof type,
    describe: (error) => {
      const described = describe(error as E);
      const status = error instanceof CloudApiError ? { status: error.status } : {};
      return { exitCode, ...described, ...status };
    },
  };
}

const LOG_IN = 'run "cloud login"';

// First match wins, so subclasses come before their base class.
const RULES: Rule[] = [
  rule(UsageError, 2, (e) => ({ code: 'Usage', message: e.message })),
  rule(CancelledError, 130, (e) => ({ code: 'Cancelled', message: e.message })),
  rule(InvalidInputError, 2, (e) => ({ code: e.code, message: `invalid input: ${e.message}` })),
  rule(NotLoggedInError, 3, (e) => ({ code: 'NotLoggedIn', message: `${e.message || 'not logged in'}; ${LOG_IN}` })),
  rule(TwoFactorRequiredError, 3, (e) => ({ code: e.code, message: `this account has two-factor login: ${LOG_IN} at a terminal, or give --code` })),
  rule(UnauthorizedError, 3, (e) => ({ code: e.code, message: `not authorized (${e.message}); ${LOG_IN}` })),
  rule(LimitExceededError, 4, (e) => ({ code: e.code, message: `limit reached: ${e.message}` })),
  rule(ForbiddenError, 4, (e) => ({ code: e.code, message: `forbidden: ${e.message}` })),
  rule(NotFoundError, 5, (e) => ({ code: e.code, message: e.message })),
  rule(ConflictError, 6, (e) => ({ code: e.code, message: e.message })),
  rule(TooManyRequestsError, 7, (e) => ({
    code: e.code,
    message: e.retryAfterSeconds === undefined ? `${e.message}; try again later` : `${e.message}; try again in ${e.retryAfterSeconds} s`,
  })),
  rule(ServerError, 1, (e) => ({
    code: e.code,
    // 503 is a state, not a failure: a stopped or provisioning node, a service starting up.
    message: `the ${e.service} service ${e.status === 503 ? 'is unavailable' : 'failed'} (${e.status}): ${e.message}${e.requestId ? ` [request id ${e.requestId}]` : ''}`,
  })),
  rule(CloudApiError, 1, (e) => ({ code: e.code, message: `the ${e.service} service answered ${e.status}: ${e.message}` })),
  rule(UnreachableError, 8, (e) => ({
    code: 'Unreachable',
    message: e.untrustedCertificate
      ? `${e.message} — the certificate is not trusted; for a dev platform's proxy give --proxy-ca .data/tls/proxy-cert.pem (at login, to keep it)`
      : `${e.message} — is the platform running (npm start), and is the URL right?`,
  })),
  rule(ProvisioningFailedError, 9, (e) => ({ code: 'ProvisioningFailed', message: e.message })),
  rule(WaitTimeoutError, 10, (e) => ({ code: 'WaitTimeout', message: `${e.message}; it may still get there, look again later` })),
  rule(NodeRpcError, 1, (e) => ({ code: 'NodeRpcError', message: `the node answered error ${e.code}: ${e.message}` })),
  rule(ConfigFileError, 1, (e) => ({ code: 'ConfigFile', message: e.message })),
];

/**
 * Advice that fits the command that failed: `cloud login` refused is not told to run
 * `cloud login`, but what to check.
 */
function failureOf(error: unknown, command: string | undefined): Failure | undefined {
  if (command !== 'login') return undefined;
  if (error instanceof TwoFactorRequiredError) {
    return {
      exitCode: 3,
      code: error.code,
      status: error.status,
      message: 'this account has two-factor login: give the code with --code <code>, or run the command at a terminal to be asked for it',
    };
  }
  if (error instanceof UnauthorizedError) {
    return {
      exitCode: 3,
      code: error.code,
      status: error.status,
      message: `${error.message}: check the e-mail address (or user id) and the password, and try again; forgot the password? cloud password reset <e-mail>`,
    };
  }
  return undefined;
}

/** The exit code and message for anything a command threw; `command` is the one that ran (`login`, `nodes create`), for advice that fits it. */
export function describeFailure(error: unknown, command?: string): Failure {
  const fitting = failureOf(error, command);
  if (fitting) return fitting;
  const known = RULES.find((candidate) => candidate.matches(error));
  if (known) return known.describe(error);
  const message = error instanceof Error ? error.message || error.name : String(error);
  return { exitCode: 1, code: 'Unexpected', message };
}

/**
 * Reports a failure and returns the exit code. Human mode writes `cloud: <message>` to err; json
 * mode writes `{"error": {...}}` to out, so a script reading stdout gets JSON either way. The
 * stack goes to err only with CLOUD_DEBUG=1. Messages never hold request bodies or tokens: the
 * SDK's errors carry the server's message only.
 */
export function reportFailure(o: Output, error: unknown, env: NodeJS.ProcessEnv = process.env, command?: string): number {
  const failure = describeFailure(error, command);
  const debug = env.CLOUD_DEBUG === '1';
  if (o.json) {
    const { code, message, status, exitCode } = failure;
    printJson(o, { error: { code, message, ...(status === undefined ? {} : { status }), exitCode } });
  } else {
    const hint = failure.code === 'Unexpected' && !debug ? ' (CLOUD_DEBUG=1 shows where)' : '';
    o.err.write(`cloud: ${failure.message}${hint}\n`);
  }
  if (debug && error instanceof Error && error.stack) o.err.write(`${error.stack}\n`);
  return failure.exitCode;
}
