import { listApiRoutes, toOpenApiPath } from '@cloud/http';
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
    const documentedRoutes = Object.entries(response.body.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`))
      .sort();
    const mountedRoutes = listApiRoutes(nodes.service.app)
      .map((route) => `${route.method} ${toOpenApiPath(route.path)}`)
      .sort();
    expect(mountedRoutes).toHaveLength(18);
    expect(documentedRoutes).toEqual(mountedRoutes);
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
