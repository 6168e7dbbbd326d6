import net from 'node:net';
import { PassThrough } from 'node:stream';
import express from 'express';
import request from 'supertest';
import { Counter, Registry } from 'prom-client';
import { z } from 'zod';
import { createLogger } from '@cloud/logging';
import {
  buildOpenApiDocument,
  ConflictError,
  createHttpApp,
  jsonResponse,
  listApiRoutes,
  OpenAPIRegistry,
  parseInput,
  toOpenApiPath,
  UnauthorizedError,
  type HttpAppOptions,
} from '../src';

function buildApp({ ready = true, brokerUp = true, metrics = undefined as HttpAppOptions['metrics'], bodyLimit = '1kb' } = {}) {
  const logStream = new PassThrough();
  const logged: string[] = [];
  logStream.on('data', (chunk: Buffer) => logged.push(chunk.toString()));
  const logger = createLogger({ service: 'cloud-test', level: 'debug', stream: logStream });

  const router = express.Router();
  router.post('/things', (req, res) => {
    const body = parseInput(z.object({ name: z.string().min(1), size: z.number().int() }), req.body, 'body');
    res.status(201).json(body);
  });
  router.get('/things/:id', (req) => {
    throw new ConflictError(`thing ${req.params.id} is busy`, 'ThingBusy');
  });
  router.get('/private', () => {
    throw new UnauthorizedError('token expired');
  });
  router.get('/explode', async () => {
    await Promise.resolve();
    throw new Error('database password is hunter22');
  });

  const registry = new OpenAPIRegistry();
  registry.registerPath({ method: 'post', path: '/things', responses: { 201: jsonResponse('made', z.object({})) } });
  const app = createHttpApp({
    logger,
    openapi: buildOpenApiDocument(registry, { title: 'test', version: '1' }),
    routers: [router],
    bodyLimit,
    ...(metrics ? { metrics } : {}),
    readiness: [
      {
        name: 'database',
        check: async () => {
          if (!ready) throw new Error('connection refused');
        },
      },
      {
        name: 'message bus',
        degradable: true,
        check: () => {
          if (!brokerUp) throw new Error('the message bus is not connected');
        },
      },
    ],
  });
  return { app, logged };
}

describe('createHttpApp', () => {
  it('serves a valid body and echoes the request id', async () => {
    const { app } = buildApp();
    const res = await request(app).post('/things').set('x-request-id', 'abc-123').send({ name: 'a', size: 2 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ name: 'a', size: 2 });
    expect(res.headers['x-request-id']).toBe('abc-123');
  });

  it('makes a request id when the caller sends none or a strange one', async () => {
    const { app } = buildApp();
    const res = await request(app).get('/healthz').set('x-request-id', 'bad id with spaces');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', dependencies: { database: 'up', 'message bus': 'up' } });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers invalid fields with 400 InvalidInput naming them', async () => {
    const { app } = buildApp();
    const res = await request(app).post('/things').send({ name: '', size: 'big' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('InvalidInput');
    expect(res.body.message).toContain('body.name');
    expect(res.body.message).toContain('body.size');
  });

  it('answers malformed JSON with 400 and an oversized body with 413', async () => {
    const { app } = buildApp();
    const malformed = await request(app).post('/things').set('content-type', 'application/json').send('{"name":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ code: 'InvalidInput', message: 'the request body is not valid JSON' });
    const large = await request(app)
      .post('/things')
      .send({ name: 'x'.repeat(2048), size: 1 });
    expect(large.status).toBe(413);
    expect(large.body.code).toBe('PayloadTooLarge');
  });

  it('refuses a body nesting deeper than 64 levels with 400 before parsing it, at any depth, and logs nothing', async () => {
    // The services' own limit (100 kB): the campaign's 6 kB and 14 kB bodies fit in it.
    const { app, logged } = buildApp({ bodyLimit: '100kb' });
    for (const depth of [65, 3_000, 7_000, 20_000]) {
      const deep = await request(app)
        .post('/things')
        .set('content-type', 'application/json')
        .send('['.repeat(depth) + ']'.repeat(depth));
      expect([depth, deep.status, deep.body]).toEqual([
        depth,
        400,
        { code: 'InvalidInput', message: 'the request body nests deeper than 64 levels of [ and {' },
      ]);
    }
    // Brackets inside strings are text, not nesting; 64 levels pass to the schema.
    const quoted = await request(app)
      .post('/things')
      .send({ name: '['.repeat(5_000), size: 1 });
    expect(quoted.status).toBe(201);
    const atLimit = await request(app)
      .post('/things')
      .set('content-type', 'application/json')
      .send('['.repeat(64) + ']'.repeat(64));
    expect(atLimit.status).toBe(400);
    expect(atLimit.body.message).not.toContain('nests deeper');
    expect(logged.join('')).not.toMatch(/RangeError|"level":"error"/);
  });

  it('maps application errors to their status, code and headers', async () => {
    const { app } = buildApp();
    const conflict = await request(app).get('/things/42');
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ code: 'ThingBusy', message: 'thing 42 is busy' });
    const unauthorized = await request(app).get('/private');
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers['www-authenticate']).toBe('Bearer realm="cloud"');
    expect(unauthorized.body).toEqual({ code: 'Unauthorized', message: 'token expired' });
  });

  it('hides unknown errors behind a 500 and logs them once, with the request id', async () => {
    const { app, logged } = buildApp();
    const res = await request(app).get('/explode').set('x-request-id', 'req-500');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ code: 'InternalError', message: 'internal error' });
    const errors = logged.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ message: 'request failed', requestId: 'req-500' });
  });

  it('answers a path that is not valid percent-encoding with 400, not 500', async () => {
    const { app } = buildApp();
    for (const path of ['/things/%ZZ', '/things/%E0%A4%A', '/things/%']) {
      const res = await request(app).get(path);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'InvalidInput', message: 'the request path is not valid percent-encoding' });
    }
  });

  it('answers other client errors of Express parts with their status and a generic message', async () => {
    const router = express.Router();
    router.get('/teapot', () => {
      throw Object.assign(new Error('internal detail: /etc/secret'), { status: 405 });
    });
    const app = createHttpApp({
      logger: createLogger({ service: 'cloud-test', level: 'silent' }),
      openapi: buildOpenApiDocument(new OpenAPIRegistry(), { title: 't', version: '1' }),
      routers: [router],
    });
    const res = await request(app).get('/teapot');
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ code: 'MethodNotAllowed', message: 'method not allowed' });
  });

  it('answers unknown routes with a JSON 404', async () => {
    const { app } = buildApp();
    const res = await request(app).delete('/nowhere');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'NotFound', message: 'no route for DELETE /nowhere' });
  });

  it('reports readiness from its checks', async () => {
    expect((await request(buildApp().app).get('/readyz')).status).toBe(200);
    const notReady = await request(buildApp({ ready: false }).app).get('/readyz');
    expect(notReady.status).toBe(503);
    expect(notReady.headers['retry-after']).toBe('5');
    expect(notReady.body).toEqual({ code: 'NotReady', message: 'database is not available' });
    const health = await request(buildApp({ ready: false }).app).get('/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'degraded', dependencies: { database: 'down', 'message bus': 'up' } });
  });

  it('stays ready without a degradable dependency, and says so in /healthz', async () => {
    const { app } = buildApp({ brokerUp: false });
    const ready = await request(app).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'degraded' });
    const health = await request(app).get('/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'degraded', dependencies: { database: 'up', 'message bus': 'down' } });
    const both = await request(buildApp({ ready: false, brokerUp: false }).app).get('/readyz');
    expect(both.status).toBe(503);
    expect(both.body).toEqual({ code: 'NotReady', message: 'database is not available' });
  });

  it('serves /metrics when asked: each dependency up or down, the service label, and the registries given', async () => {
    const extra = new Registry();
    new Counter({ name: 'bus_messages_dead_lettered_total', help: 'dead letters', labelNames: ['queue'], registers: [extra] }).inc({
      queue: 'nodes.usage.dead',
    });
    const { app } = buildApp({ brokerUp: false, metrics: { service: 'cloud-test', registries: [extra] } });
    const res = await request(app).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.text).toContain('api_dependency_up{dependency="database",service="cloud-test"} 1');
    expect(res.text).toContain('api_dependency_up{dependency="message bus",service="cloud-test"} 0');
    expect(res.text).toContain('bus_messages_dead_lettered_total{queue="nodes.usage.dead"} 1');
    expect(res.text).toMatch(/^process_cpu_seconds_total \d/m); // the process's, once per process: no service label
    // Not asked for: no such route.
    expect((await request(buildApp().app).get('/metrics')).status).toBe(404);
  });

  it('answers a request that failed on an unreachable dependency 503 ServiceUnavailable with Retry-After, not 500', async () => {
    // A real refused connection: what pg reports when the database server is down.
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await new Promise<Error>((resolve) => net.connect(port, '127.0.0.1').on('error', resolve));
    expect((refused as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');

    const unavailable = [
      refused,
      new Error('select 1 - Connection terminated unexpectedly'),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' }),
      new Error('query failed', { cause: refused }),
    ];
    for (const error of unavailable) {
      const app = createHttpApp({
        logger: createLogger({ service: 'cloud-test', level: 'silent' }),
        openapi: buildOpenApiDocument(new OpenAPIRegistry(), { title: 'test', version: '1' }),
        routers: [
          express.Router().get('/fail', () => {
            throw error;
          }),
        ],
      });
      const res = await request(app).get('/fail');
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toEqual({ code: 'ServiceUnavailable', message: 'a service this one depends on is unavailable; try again shortly' });
    }
    // A bug is still a 500.
    const { app } = buildApp();
    expect((await request(app).get('/explode')).status).toBe(500);
  });

  it('serves the OpenAPI document and Swagger UI', async () => {
    const { app } = buildApp();
    const doc = await request(app).get('/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(Object.keys(doc.body.paths)).toEqual(['/things']);
    const ui = await request(app).get('/docs/');
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger-ui');
  });

  it('lists the routes it mounts', () => {
    const { app } = buildApp();
    const mine = listApiRoutes(app);
    expect(mine).toEqual([
      { method: 'post', path: '/things' },
      { method: 'get', path: '/things/:id' },
      { method: 'get', path: '/private' },
      { method: 'get', path: '/explode' },
    ]);
    expect(toOpenApiPath('/users/:userId/token/:token')).toBe('/users/{userId}/token/{token}');
  });
});
