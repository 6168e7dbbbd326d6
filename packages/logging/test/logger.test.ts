import { PassThrough } from 'node:stream';
import { createLogger, REDACTED, redactSecrets, runOutsideRequestContext, runWithRequestContext } from '../src';

function capture() {
  const stream = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  return { stream, lines };
}

describe('createLogger', () => {
  it('writes JSON with the service name and the request id of the current request', async () => {
    const { stream, lines } = capture();
    const logger = createLogger({ service: 'cloud-test', stream });
    await runWithRequestContext({ requestId: 'req-1' }, async () => {
      await Promise.resolve();
      logger.info('inside', { userId: 'user-1' });
    });
    logger.info('outside');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([
      expect.objectContaining({ level: 'info', message: 'inside', service: 'cloud-test', requestId: 'req-1', userId: 'user-1' }),
      expect.objectContaining({ level: 'info', message: 'outside', service: 'cloud-test' }),
    ]);
    expect(lines[1]).not.toHaveProperty('requestId');
  });

  it('leaves the request id off work a request only started, run outside its context', async () => {
    const { stream, lines } = capture();
    const logger = createLogger({ service: 'cloud-test', stream });
    let background!: Promise<void>;
    runWithRequestContext({ requestId: 'req-2' }, () => {
      background = runOutsideRequestContext(async () => {
        await Promise.resolve();
        logger.info('background');
      });
      logger.info('request');
    });
    await background;
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => [line.message, line.requestId])).toEqual([
      ['request', 'req-2'],
      ['background', undefined],
    ]);
  });

  it('never writes a secret passed as metadata, at any depth', async () => {
    const { stream, lines } = capture();
    const logger = createLogger({ service: 'cloud-test', stream });
    logger.warn('login', {
      password: 'hunter22',
      body: { clientSecret: 's3cr3t', nested: [{ refreshToken: 'a.b.c' }] },
      headers: { authorization: 'Basic xyz' },
    });
    await new Promise((resolve) => setImmediate(resolve));
    const text = JSON.stringify(lines);
    expect(text).not.toMatch(/hunter22|s3cr3t|a\.b\.c|Basic xyz/);
    expect(lines[0]).toMatchObject({
      password: REDACTED,
      body: { clientSecret: REDACTED, nested: [{ refreshToken: REDACTED }] },
      headers: { authorization: REDACTED },
    });
  });

  it('is quiet at level silent', async () => {
    const { stream, lines } = capture();
    createLogger({ service: 'cloud-test', level: 'silent', stream }).error('nothing');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(0);
  });
});

describe('redactSecrets', () => {
  it('keeps ordinary fields and survives cycles', () => {
    const value: Record<string, unknown> = { id: 'x', count: 2 };
    value.self = value;
    expect(redactSecrets(value)).toEqual({ id: 'x', count: 2, self: '[circular]' });
  });
});
