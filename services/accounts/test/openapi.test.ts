import { listApiRoutes, toOpenApiPath } from '@cloud/http';
import { startTestAccounts, type TestAccounts } from '../src/testing';


describe('the OpenAPI document', () => {
  let t: TestAccounts;
  beforeAll(async () => {
    t = await startTestAccounts();
  });
  afterAll(() => t.close());

  it('is served as OpenAPI 3.1 with Swagger UI at /docs', async () => {
    const res = await t.http.get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ openapi: '3.1.0', info: { title: 'Accounts API' } });
    const ui = await t.http.get('/docs/');
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger-ui');
  });

  it('documents every route the service mounts, and nothing it does not', async () => {
    const documented = (await t.http.get('/openapi.json')).body.paths as Record<string, Record<string, unknown>>;
    const documentedRoutes = Object.entries(documented)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`))
      .sort();
    const mountedRoutes = listApiRoutes(t.service.app)
      .map((route) => `${route.method} ${toOpenApiPath(route.path)}`)
      .sort();
    expect(mountedRoutes.length).toBeGreaterThanOrEqual(13);
    expect(documentedRoutes).toEqual(mountedRoutes);
  });
});
