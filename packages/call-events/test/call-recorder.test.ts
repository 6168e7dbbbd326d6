import express from 'express';
import request from 'supertest';
import { createLogger } from '@cloud/logging';
import { attributeCallTo, CallRecorder, type CallEvent } from '../src';

function setup(sinkBehaviour: 'store' | 'fail' | 'slow' = 'store') {
  const stored: CallEvent[] = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const recorder = new CallRecorder({
    service: 'cloud-test',
    logger: createLogger({ service: 'cloud-test', level: 'silent' }),
    sink: {
      record: async (event) => {
        if (sinkBehaviour === 'fail') throw new Error('database down');
        if (sinkBehaviour === 'slow') await gate;
        stored.push(event);
      },
    },
  });
  const app = express();
  app.use((req, res, next) => {
    res.locals.requestId = 'req-1';
    next();
  });
  app.use(recorder.middleware);
  app.get('/things/:id', (req, res) => {
    if (req.get('x-user')) attributeCallTo(res, req.get('x-user')!);
    res.status(req.params.id === 'missing' ? 404 : 200).json({ id: req.params.id, padding: 'xxxx' });
  });
  app.delete('/things/:id', (req, res) => {
    attributeCallTo(res, 'user-4');
    throw Object.assign(new Error('no such thing'), { status: 404 });
  });
  app.post('/users/:userId/token/:token', (req, res) => {
    attributeCallTo(res, req.params.userId);
    res.status(204).end();
  });
  // Runs with req.params already reset by Express, as every service's error handler does.
  app.use((error: Error & { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(error.status ?? 500).json({ message: error.message });
  });
  return { app, recorder, stored, release };
}

describe('CallRecorder', () => {
  it('records the shape of a user call after the response: route, resource id, status, bytes and timing', async () => {
    const { app, recorder, stored } = setup();
    const res = await request(app).get('/things/t-1').set('x-user', 'user-1');
    expect(res.status).toBe(200);
    await recorder.drain();
    expect(stored).toHaveLength(1);
    const [event] = stored;
    expect(event).toMatchObject({
      id: expect.stringMatching(/^event-[0-9a-f-]{36}$/),
      user: 'user-1',
      service: 'cloud-test',
      input: { method: 'GET', route: '/things/:id', resourceId: 't-1' },
      output: { httpStatusCode: 200, bytesOut: Buffer.byteLength(res.text) },
      serviceData: { requestId: 'req-1' },
    });
    expect(Date.parse(event!.output.endTime)).toBeGreaterThanOrEqual(Date.parse(event!.output.startTime));
    expect(event!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('marks a call the client sent as its own background read (x-cloud-background: 1), storing only the mark', async () => {
    const { app, recorder, stored } = setup();
    await request(app).get('/things/t-1').set('x-user', 'user-1').set('x-cloud-background', '1').expect(200);
    await request(app).get('/things/t-2').set('x-user', 'user-1').set('x-cloud-background', 'secret-ish').expect(200);
    await request(app).get('/things/t-3').set('x-user', 'user-1').expect(200);
    await recorder.drain();
    expect(stored.map((event) => event.serviceData)).toEqual([{ requestId: 'req-1', background: true }, { requestId: 'req-1' }, { requestId: 'req-1' }]);
  });

  it('records failures too, but nothing for calls tied to no user', async () => {
    const { app, recorder, stored } = setup();
    await request(app).get('/things/missing').set('x-user', 'user-2');
    await request(app).get('/things/anonymous');
    await recorder.drain();
    expect(stored.map((event) => [event.user, event.output.httpStatusCode])).toEqual([['user-2', 404]]);
  });

  it('keeps the resource id of a call whose handler failed', async () => {
    const { app, recorder, stored } = setup();
    await request(app).delete('/things/t%2D5').expect(404);
    await request(app).delete('/things/%E0%A4%A').expect(400); // a path that does not decode never reaches the route
    await recorder.drain();
    expect(stored.map((event) => event.input)).toEqual([{ method: 'DELETE', route: '/things/:id', resourceId: 't-5' }]);
  });

  it('never records a secret path parameter', async () => {
    const { app, recorder, stored } = setup();
    await request(app).post('/users/user-3/token/very-secret-token');
    await recorder.drain();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain('very-secret-token');
    expect(stored[0]!.input).toEqual({ method: 'POST', route: '/users/:userId/token/:token' });
  });

  it('answers before the event is written, and drain waits for it', async () => {
    const { app, recorder, stored, release } = setup('slow');
    const res = await request(app).get('/things/t-2').set('x-user', 'user-4');
    expect(res.status).toBe(200);
    expect(stored).toHaveLength(0);
    const drained = recorder.drain();
    release();
    await drained;
    expect(stored).toHaveLength(1);
  });

  it('does not fail the call when the sink fails', async () => {
    const { app, recorder } = setup('fail');
    const res = await request(app).get('/things/t-3').set('x-user', 'user-5');
    expect(res.status).toBe(200);
    await expect(recorder.drain()).resolves.toBeUndefined();
  });
});

describe('CallRecorder ordering and draining', () => {
  it('writes events in the order the responses finished, even when the store is slow for the first', async () => {
    const stored: string[] = [];
    let first = true;
    const recorder = new CallRecorder({
      service: 'cloud-test',
      logger: createLogger({ service: 'cloud-test', level: 'silent' }),
      sink: {
        record: async (event) => {
          if (first) {
            first = false;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          stored.push(event.input.resourceId!);
        },
      },
    });
    const app = express();
    app.use(recorder.middleware);
    app.get('/things/:id', (req, res) => {
      attributeCallTo(res, 'user-1');
      res.json({});
    });
    for (const id of ['a', 'b', 'c']) await request(app).get(`/things/${id}`);
    await recorder.drain();
    expect(stored).toEqual(['a', 'b', 'c']);
  });

  it('drain waits for a response that is still being sent', async () => {
    const stored: string[] = [];
    const recorder = new CallRecorder({
      service: 'cloud-test',
      logger: createLogger({ service: 'cloud-test', level: 'silent' }),
      sink: { record: async (event) => void stored.push(event.user) },
    });
    let entered!: () => void;
    const handlerEntered = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const app = express();
    app.use(recorder.middleware);
    app.get('/slow', (_req, res) => {
      attributeCallTo(res, 'user-slow');
      entered();
      setTimeout(() => res.json({}), 30);
    });
    const response = request(app)
      .get('/slow')
      .then((res) => res.status);
    await handlerEntered; // the request is in flight, its response not yet sent
    await recorder.drain();
    expect(stored).toEqual(['user-slow']);
    expect(await response).toBe(200);
  });
});

describe('CallRecorder clock', () => {
  it('stamps events with the clock it is given', async () => {
    const stored: CallEvent[] = [];
    const recorder = new CallRecorder({
      service: 'cloud-test',
      logger: createLogger({ service: 'cloud-test', level: 'silent' }),
      sink: { record: async (event) => void stored.push(event) },
      clock: () => Date.parse('2030-01-02T03:04:05.678Z'),
    });
    const app = express();
    app.use(recorder.middleware);
    app.get('/x', (_req, res) => {
      attributeCallTo(res, 'user-1');
      res.json({});
    });
    await request(app).get('/x');
    await recorder.drain();
    expect(stored[0]).toMatchObject({
      createdAt: '2030-01-02T03:04:05.678Z',
      output: { startTime: '2030-01-02T03:04:05.678Z', endTime: '2030-01-02T03:04:05.678Z' },
    });
  });
});

describe('CallRecorder while the database is unreachable', () => {
  const unreachable = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

  function recorderWith(record: (event: CallEvent) => Promise<void>, retryForMs?: number) {
    const recorder = new CallRecorder({
      service: 'cloud-test',
      logger: createLogger({ service: 'cloud-test', level: 'silent' }),
      sink: { record },
      ...(retryForMs === undefined ? {} : { retryForMs }),
    });
    const app = express();
    app.use(recorder.middleware);
    app.get('/things/:id', (req, res) => {
      attributeCallTo(res, 'user-1');
      res.json({});
    });
    return { recorder, app };
  }

  it('keeps the events of calls answered before the outage, in order, and writes them once it is back', async () => {
    const stored: string[] = [];
    let down = 3;
    const { recorder, app } = recorderWith(async (event) => {
      if (down > 0) {
        down -= 1;
        throw unreachable();
      }
      stored.push(event.input.resourceId!);
    });
    for (const id of ['a', 'b']) expect((await request(app).get(`/things/${id}`)).status).toBe(200);
    await recorder.drain();
    expect({ stored, triesLeft: down }).toEqual({ stored: ['a', 'b'], triesLeft: 0 });
  });

  it('does not try again an event the database refused for what it holds, nor past the retry window', async () => {
    let tries = 0;
    const refused = recorderWith(async () => {
      tries += 1;
      throw Object.assign(new Error('value too long for type character varying(128)'), { code: '22001' });
    });
    await request(refused.app).get('/things/a');
    await refused.recorder.drain();
    expect(tries).toBe(1);

    tries = 0;
    const outage = recorderWith(async () => {
      tries += 1;
      throw unreachable();
    }, 250);
    await request(outage.app).get('/things/a');
    await outage.recorder.drain();
    // 100 ms, then 200 ms would pass the 250 ms window: two tries, then the event is dropped and logged.
    expect(tries).toBe(2);
  });
});
