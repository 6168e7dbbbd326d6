import express, { type RequestHandler } from 'express';
import request from 'supertest';
import { z } from 'zod';
import { createLogger } from '@cloud/logging';
import {
  buildApiDocument,
  compareRoutesWithDocument,
  createHttpApp,
  errorResponse,
  jsonResponse,
  mountRoutes,
  routeDeclarer,
  UnauthorizedError,
  type RouteAuth,
} from '../src';

interface Deps {
  shelf: Map<string, string>;
  requireKey: RequestHandler;
}

const route = routeDeclarer<Deps>();
const keyAuth: RouteAuth<Deps> = {
  schemes: { key: { type: 'http', scheme: 'bearer', description: 'the key' } },
  security: [{ key: [] }],
  unauthorized: errorResponse('no key'),
  guard: (deps) => deps.requireKey,
};
const thingParams = z.object({ id: z.string().regex(/^t\d+$/) });

const routes = [
  route({
    method: 'get',
    path: '/things/:id',
    tags: ['things'],
    summary: 'One thing',
    request: { params: thingParams, query: z.strictObject({ upper: z.enum(['yes', 'no']).default('no') }) },
    responses: { 200: jsonResponse('the thing', z.object({ id: z.string(), name: z.string() })), 404: errorResponse('no such thing') },
    handler: ({ params: { id }, query: { upper }, res, deps }) => {
      const name = deps.shelf.get(id) ?? '';
      res.json({ id, name: upper === 'yes' ? name.toUpperCase() : name });
    },
  }),
  route({
    method: 'put',
    path: '/things/:id',
    tags: ['things'],
    summary: 'Name a thing',
    description: 'Replaces its name.',
    auth: keyAuth,
    request: { params: thingParams, body: z.strictObject({ name: z.string().min(1) }) },
    responses: { 204: { description: 'named' }, 400: errorResponse('bad input') },
    handler: ({ params: { id }, body: { name }, res, deps }) => {
      deps.shelf.set(id, name);
      res.status(204).end();
    },
  }),
  route({
    method: 'post',
    path: '/things/:id/poke',
    tags: ['things'],
    summary: 'Poke a thing',
    auth: { ...keyAuth, unauthorized: errorResponse('no key, or a key that may not poke') },
    request: { params: thingParams, body: z.strictObject({}), bodyRequired: false },
    responses: { 200: jsonResponse('poked', z.object({ poked: z.string() })) },
    handler: async ({ params: { id }, res }) => {
      await Promise.resolve();
      if (id === 't0') throw new UnauthorizedError('t0 may not be poked');
      res.json({ poked: id });
    },
  }),
];

const document = buildApiDocument(routes, { title: 'Things API', version: '1' });

function appWith(routers: express.Router[]) {
  return createHttpApp({ logger: createLogger({ service: 'cloud-test', level: 'silent' }), openapi: document, routers });
}

function thingsApp() {
  const deps: Deps = {
    shelf: new Map([['t1', 'box']]),
    requireKey: (req, _res, next) => next(req.headers.authorization === 'Bearer k' ? undefined : new UnauthorizedError('no key')),
  };
  return appWith([mountRoutes(routes, deps)]);
}

describe('routes declared once', () => {
  it('are served with their inputs parsed and typed', async () => {
    const app = thingsApp();
    expect((await request(app).get('/things/t1?upper=yes')).body).toEqual({ id: 't1', name: 'BOX' });
    await request(app).put('/things/t1').set('authorization', 'Bearer k').send({ name: 'crate' }).expect(204);
    expect((await request(app).get('/things/t1')).body).toEqual({ id: 't1', name: 'crate' });
    // An optional body may be left out; a handler's rejection reaches the error handler.
    expect((await request(app).post('/things/t2/poke').set('authorization', 'Bearer k')).body).toEqual({ poked: 't2' });
    expect((await request(app).post('/things/t0/poke').set('authorization', 'Bearer k')).status).toBe(401);
  });

  it('parse path parameters, then query, then body, each answering 400 naming the field', async () => {
    const app = thingsApp();
    const badPathAndQuery = await request(app).get('/things/x?upper=maybe');
    expect([badPathAndQuery.status, badPathAndQuery.body.message]).toEqual([400, 'params.id: Invalid string: must match pattern /^t\\d+$/']);
    expect((await request(app).get('/things/t1?upper=maybe')).body.message).toMatch(/^query\.upper: /);
    const badBody = await request(app).put('/things/t1').set('authorization', 'Bearer k').send({ name: '' });
    expect([badBody.status, badBody.body.message]).toEqual([400, expect.stringMatching(/^body\.name: /)]);
  });

  it('run the auth guard before parsing: a caller without a key gets 401, not 400', async () => {
    const res = await request(thingsApp()).put('/things/x').send({ name: '' });
    expect([res.status, res.body.code]).toEqual([401, 'Unauthorized']);
  });

  it("make the document: OpenAPI paths, inputs, security with its scheme, and the auth's 401 unless the route has its own", () => {
    expect(document.components?.securitySchemes).toEqual({ key: { type: 'http', scheme: 'bearer', description: 'the key' } });
    const thing = document.paths?.['/things/{id}'];
    expect(thing?.get).toMatchObject({ tags: ['things'], summary: 'One thing' });
    expect(thing?.get?.security).toBeUndefined();
    expect(thing?.get?.parameters?.map((parameter) => 'in' in parameter && `${parameter.in} ${parameter.name}`)).toEqual(['path id', 'query upper']);
    expect(Object.keys(thing?.get?.responses ?? {})).toEqual(['200', '404']);
    expect(thing?.put).toMatchObject({ description: 'Replaces its name.', security: [{ key: [] }], requestBody: { required: true } });
    expect(thing?.put?.responses?.['401']).toEqual({
      description: 'no key',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
    const poke = document.paths?.['/things/{id}/poke']?.post;
    expect(poke).toMatchObject({ requestBody: { required: false }, responses: { 401: { description: 'no key, or a key that may not poke' } } });
  });
});

describe('compareRoutesWithDocument', () => {
  it('agrees when the routes are mounted from their declarations', () => {
    expect(compareRoutesWithDocument(thingsApp(), document)).toEqual({ undocumented: [], unmounted: [] });
  });

  it('names a route mounted outside the declarations, and a declared route not mounted', () => {
    const stray = express.Router();
    stray.delete('/things/:id', (_req, res) => {
      res.status(204).end();
    });
    const deps: Deps = { shelf: new Map(), requireKey: (_req, _res, next) => next() };
    const app = appWith([mountRoutes(routes.slice(0, 2), deps), stray]);
    expect(compareRoutesWithDocument(app, document)).toEqual({ undocumented: ['delete /things/{id}'], unmounted: ['post /things/{id}/poke'] });
  });
});
