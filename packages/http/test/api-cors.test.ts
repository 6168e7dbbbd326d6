import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import { createLogger } from '@cloud/logging';
import { buildOpenApiDocument, createHttpApp, OpenAPIRegistry, parseInput, UnauthorizedError } from '../src';
import { corsCheck, preflightFailure } from '../src/testing/fetch-cors';

const CONSOLE = 'http://127.0.0.1:3000';

function app(corsOrigins?: string[]) {
  const router = express.Router();
  router.put('/things/:id', (req, res) => {
    if (req.headers.authorization !== 'Bearer good') throw new UnauthorizedError('a client token is required');
    res.json(parseInput(z.object({ name: z.string() }), req.body, 'body'));
  });
  return createHttpApp({
    logger: createLogger({ service: 'cloud-test', level: 'silent' }),
    openapi: buildOpenApiDocument(new OpenAPIRegistry(), { title: 'test', version: '1' }),
    routers: [router],
    corsOrigins,
  });
}

const preflight = (target: ReturnType<typeof app>, origin: string) =>
  request(target)
    .options('/things/1')
    .set('origin', origin)
    .set('access-control-request-method', 'PUT')
    .set('access-control-request-headers', 'authorization,content-type');

describe('CORS on the APIs (CORS_ORIGINS)', () => {
  it('lets a page of an allowed origin call with its token: the preflight and the answer pass the browser checks', async () => {
    const target = app([CONSOLE, 'https://console.example.com']);
    const answer = await preflight(target, CONSOLE);
    expect(answer.status).toBe(204);
    expect(preflightFailure(answer.status, answer.headers, { origin: CONSOLE, method: 'PUT', headers: ['authorization', 'content-type'] })).toBeUndefined();
    expect(answer.headers.vary).toMatch(/Origin/);
    // Tokens travel in Authorization, never cookies: credentials mode "include" is not offered.
    expect(answer.headers['access-control-allow-credentials']).toBeUndefined();

    const call = await request(target).put('/things/1').set('origin', CONSOLE).set('authorization', 'Bearer good').send({ name: 'a' });
    expect(call.status).toBe(200);
    expect(call.body).toEqual({ name: 'a' });
    expect(corsCheck(call.headers, CONSOLE)).toBe(true);
    expect(call.headers['access-control-expose-headers']).toMatch(/Retry-After/);
  });

  it("lets a page mark its background reads (x-cloud-background), the header the console's SDK sends", async () => {
    const answer = await request(app([CONSOLE]))
      .options('/things/1')
      .set('origin', CONSOLE)
      .set('access-control-request-method', 'GET')
      .set('access-control-request-headers', 'authorization,x-cloud-background');
    expect(answer.status).toBe(204);
    expect(
      preflightFailure(answer.status, answer.headers, { origin: CONSOLE, method: 'GET', headers: ['authorization', 'x-cloud-background'] }),
    ).toBeUndefined();
  });

  it('gives a page its error answers too, so it can show them', async () => {
    const call = await request(app([CONSOLE]))
      .put('/things/1')
      .set('origin', CONSOLE)
      .send({ name: 'a' });
    expect(call.status).toBe(401);
    expect(call.body).toEqual({ code: 'Unauthorized', message: 'a client token is required' });
    expect(corsCheck(call.headers, CONSOLE)).toBe(true);
  });

  it('gives another origin no Access-Control header, so the browser keeps the answer from its page', async () => {
    const target = app([CONSOLE]);
    const other = 'https://evil.example';
    const answer = await preflight(target, other);
    expect(preflightFailure(answer.status, answer.headers, { origin: other, method: 'PUT', headers: ['authorization', 'content-type'] })).toBe(
      'the CORS check fails',
    );
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(answer.headers.vary).toMatch(/Origin/);

    // An origin that differs only in port or scheme is another origin.
    for (const near of ['http://127.0.0.1:3001', 'https://127.0.0.1:3000']) {
      const call = await request(target).put('/things/1').set('origin', near).set('authorization', 'Bearer good').send({ name: 'a' });
      expect(corsCheck(call.headers, near)).toBe(false);
    }
  });

  it('answers no CORS at all when no origin is allowed (the default)', async () => {
    const answer = await preflight(app(), CONSOLE);
    // Express's own OPTIONS answer (Allow: the route's methods), with nothing a browser takes as consent.
    expect(answer.headers.allow).toContain('PUT');
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflightFailure(answer.status, answer.headers, { origin: CONSOLE, method: 'PUT', headers: ['authorization'] })).toBe('the CORS check fails');
  });
});
