import { compareRoutesWithDocument, listApiRoutes, type OpenApiDocument } from '@cloud/http';
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
    const document = (await t.http.get('/openapi.json')).body as OpenApiDocument;
    expect(listApiRoutes(t.service.app).length).toBeGreaterThanOrEqual(13);
    expect(compareRoutesWithDocument(t.service.app, document)).toEqual({ undocumented: [], unmounted: [] });
  });
});
