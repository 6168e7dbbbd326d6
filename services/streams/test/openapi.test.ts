import { compareRoutesWithDocument, listApiRoutes, type OpenApiDocument } from '@cloud/http';
import { startTestPlatform, type TestPlatform } from '@cloud/nodes/testing';
import { startTestStreams, type TestStreams } from '../src/testing';

describe('the streams OpenAPI document', () => {
  let platform: TestPlatform;
  let streams: TestStreams;
  beforeAll(async () => {
    platform = await startTestPlatform();
    // The node routes come from the nodes service: without an instance the streams service is never ready.
    await platform.startNodes();
    streams = await startTestStreams(platform);
  });
  afterAll(async () => {
    await streams?.close();
    await platform?.close();
  });

  it('is served as OpenAPI 3.1 and documents every route the service mounts, and nothing it does not', async () => {
    const response = await streams.http.get('/openapi.json').expect(200);
    expect(response.body).toMatchObject({ openapi: '3.1.0', info: { title: 'Streams API' } });
    expect(listApiRoutes(streams.service.app)).toHaveLength(12);
    expect(compareRoutesWithDocument(streams.service.app, response.body as OpenApiDocument)).toEqual({ undocumented: [], unmounted: [] });
  });

  it('answers readiness once its database, bus, revocations and node routes are ready', async () => {
    const ready = await streams.http.get('/readyz');
    expect([ready.status, ready.body]).toEqual([200, { status: 'ok' }]);
  });
});
