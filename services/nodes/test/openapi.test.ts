import { compareRoutesWithDocument, listApiRoutes, type OpenApiDocument } from '@cloud/http';
import { startTestPlatform, type TestNodes, type TestPlatform } from '../src/testing';

describe('the nodes OpenAPI document', () => {
  let platform: TestPlatform;
  let nodes: TestNodes;
  beforeAll(async () => {
    platform = await startTestPlatform();
    nodes = await platform.startNodes();
  });
  afterAll(() => platform.close());

  it('is served as OpenAPI 3.1 and documents every route the service mounts, and nothing it does not', async () => {
    const response = await nodes.http.get('/openapi.json').expect(200);
    expect(response.body).toMatchObject({ openapi: '3.1.0', info: { title: 'Nodes API' } });
    expect(listApiRoutes(nodes.service.app)).toHaveLength(30);
    expect(compareRoutesWithDocument(nodes.service.app, response.body as OpenApiDocument)).toEqual({ undocumented: [], unmounted: [] });
  });

  it('answers readiness once its database, bus and revocations are ready', async () => {
    const ready = await nodes.http.get('/readyz');
    expect([ready.status, ready.body]).toEqual([200, { status: 'ok' }]);
  });

  it('serves /metrics: each dependency up, and the dead-letter counter of the bus', async () => {
    const metrics = await nodes.http.get('/metrics').expect(200);
    for (const dependency of ['database', 'message bus', 'token revocations']) {
      expect(metrics.text).toContain(`api_dependency_up{dependency="${dependency}",service="cloud-nodes"} 1`);
    }
    expect(metrics.text).toContain('# TYPE bus_messages_dead_lettered_total counter');
  });
});
