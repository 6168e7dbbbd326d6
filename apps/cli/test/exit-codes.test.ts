import * as sdk from '@cloud/sdk';
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
import { ConfigFileError } from '../src/config-store';
import { CancelledError, describeFailure, reportFailure, UsageError } from '../src/exit-codes';
import { captureOutput } from './support/capture';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3001'), { code: 'ECONNREFUSED' });

const cases: Array<[name: string, error: unknown, exitCode: number, code: string, phrases: string[]]> = [
  ['UsageError', new UsageError('--chain is required'), 2, 'Usage', ['--chain is required']],
  [
    'InvalidInputError',
    new InvalidInputError(400, 'InvalidInput', 'email: not an e-mail address', 'accounts'),
    2,
    'InvalidInput',
    ['invalid input: email: not an e-mail address'],
  ],
  ['NotLoggedInError', new NotLoggedInError('not logged in'), 3, 'NotLoggedIn', ['not logged in', 'run "cloud login"']],
  [
    'UnauthorizedError',
    new UnauthorizedError(401, 'Unauthorized', 'the token expired', 'nodes'),
    3,
    'Unauthorized',
    ['the token expired', 'run "cloud login"'],
  ],
  [
    'TwoFactorRequiredError',
    new TwoFactorRequiredError(401, 'TwoFactorRequired', 'this account has two-factor login', 'accounts'),
    3,
    'TwoFactorRequired',
    ['two-factor login', '--code'],
  ],
  [
    'ForbiddenError',
    new ForbiddenError(403, 'UserNotVerified', 'verify your e-mail address first', 'accounts'),
    4,
    'UserNotVerified',
    ['verify your e-mail address first'],
  ],
  [
    'LimitExceededError',
    new LimitExceededError(403, 'LimitExceeded', 'you have 5 nodes, the most allowed; delete one first', 'nodes'),
    4,
    'LimitExceeded',
    ['limit reached: you have 5 nodes, the most allowed; delete one first'],
  ],
  ['NotFoundError', new NotFoundError(404, 'NotFound', 'no such node', 'nodes'), 5, 'NotFound', ['no such node']],
  ['ConflictError', new ConflictError(409, 'Conflict', 'the node is being deleted', 'nodes'), 6, 'Conflict', ['the node is being deleted']],
  [
    'TooManyRequestsError',
    new TooManyRequestsError(429, 'TooManyRequests', 'too many login attempts', 'accounts', 'req-1', 30),
    7,
    'TooManyRequests',
    ['too many login attempts', 'try again in 30 s'],
  ],
  [
    'TooManyRequestsError without Retry-After',
    new TooManyRequestsError(429, 'TooManyRequests', 'slow down', 'accounts'),
    7,
    'TooManyRequests',
    ['slow down', 'try again later'],
  ],
  [
    'ServerError',
    new ServerError(500, 'InternalError', 'internal error', 'staking', 'req-42'),
    1,
    'InternalError',
    ['staking service failed (500)', 'internal error', 'req-42'],
  ],
  [
    'ServerError 503',
    new ServerError(503, 'NodeStopped', 'node n is stopped; start it to call it again', 'node-proxy'),
    1,
    'NodeStopped',
    ['node-proxy service is unavailable (503)', 'is stopped'],
  ],
  [
    'another CloudApiError',
    new CloudApiError(413, 'PayloadTooLarge', 'the request body is too large', 'nodes'),
    1,
    'PayloadTooLarge',
    ['nodes service answered 413', 'too large'],
  ],
  [
    'UnreachableError',
    new UnreachableError('accounts', 'http://127.0.0.1:3001', refused),
    8,
    'Unreachable',
    ['cannot reach the accounts service at http://127.0.0.1:3001', 'ECONNREFUSED', 'is the platform running (npm start)'],
  ],
  [
    'ProvisioningFailedError',
    new ProvisioningFailedError('node-1', 'the image would not start'),
    9,
    'ProvisioningFailed',
    ['node-1 failed: the image would not start'],
  ],
  ['WaitTimeoutError', new WaitTimeoutError('node-1', 'provisioning', 300_000), 10, 'WaitTimeout', ['node-1 is still provisioning after 300 s']],
  ['NodeRpcError', new NodeRpcError(-32601, 'method not allowed'), 1, 'NodeRpcError', ['-32601', 'method not allowed']],
  ['CancelledError', new CancelledError(), 130, 'Cancelled', ['cancelled']],
  ['ConfigFileError', new ConfigFileError('/home/a/.config/cloud/config.json is not valid JSON'), 1, 'ConfigFile', ['config.json is not valid JSON']],
  ['an unexpected Error', new TypeError('x is not a function'), 1, 'Unexpected', ['x is not a function']],
  ['a thrown string', 'boom', 1, 'Unexpected', ['boom']],
];

test.each(cases.map(([name, error, exitCode, code, phrases]) => [name, exitCode, code, error, phrases] as const))(
  '%s exits %i, code %s',
  (_name, exitCode, code, error, phrases) => {
    const failure = describeFailure(error);
    expect(failure).toMatchObject({ exitCode, code });
    for (const phrase of phrases) expect(failure.message).toContain(phrase);
  },
);

test('every error class of the SDK has its case above', () => {
  const classes = Object.entries(sdk)
    .filter(([, value]) => typeof value === 'function' && value.prototype instanceof sdk.CloudError)
    .map(([name]) => name);
  const covered = new Set(cases.map(([, error]) => (error as object).constructor.name));
  expect(classes.filter((name) => !covered.has(name))).toEqual([]);
});

describe('reportFailure', () => {
  const limit = new LimitExceededError(403, 'LimitExceeded', 'you have 5 nodes, the most allowed', 'nodes');

  test('human mode: "cloud: <message>" on err, nothing on out', () => {
    const { o, out, err } = captureOutput();
    expect(reportFailure(o, limit, {})).toBe(4);
    expect(err.text).toBe('cloud: limit reached: you have 5 nodes, the most allowed\n');
    expect(out.text).toBe('');
  });

  test('json mode: {"error": {code, message, status, exitCode}} on out, nothing on err', () => {
    const { o, out, err } = captureOutput(true);
    expect(reportFailure(o, limit, {})).toBe(4);
    expect(JSON.parse(out.text)).toEqual({
      error: { code: 'LimitExceeded', message: 'limit reached: you have 5 nodes, the most allowed', status: 403, exitCode: 4 },
    });
    expect(err.text).toBe('');
  });

  test('json mode: no status for errors that are not answers of the platform', () => {
    const { o, out } = captureOutput(true);
    expect(reportFailure(o, new UsageError('--chain is required'), {})).toBe(2);
    expect(JSON.parse(out.text)).toEqual({ error: { code: 'Usage', message: '--chain is required', exitCode: 2 } });
  });

  test('an unexpected error shows its message and a hint, and its stack only with CLOUD_DEBUG=1', () => {
    const bug = new TypeError('x is not a function');
    const quiet = captureOutput();
    expect(reportFailure(quiet.o, bug, {})).toBe(1);
    expect(quiet.err.text).toBe('cloud: x is not a function (CLOUD_DEBUG=1 shows where)\n');

    const debug = captureOutput();
    expect(reportFailure(debug.o, bug, { CLOUD_DEBUG: '1' })).toBe(1);
    expect(debug.err.text).toBe(`cloud: x is not a function\n${bug.stack}\n`);

    const json = captureOutput(true);
    reportFailure(json.o, bug, { CLOUD_DEBUG: '1' });
    expect(JSON.parse(json.out.text)).toEqual({ error: { code: 'Unexpected', message: 'x is not a function', exitCode: 1 } });
    expect(json.err.text).toBe(`${bug.stack}\n`);
  });
});
