import { listApiRoutes, toOpenApiPath } from '@cloud/http';
import { startTestPlatform, type TestPlatform } from '@cloud/nodes/testing';
import { startTestStaking, type TestStaking } from '../src/testing';


describe('the staking OpenAPI document', () => {
  let platform: TestPlatform;
  let staking: TestStaking;
  beforeAll(async () => {
    platform = await startTestPlatform();
    staking = await startTestStaking(platform);
  });
  afterAll(async () => {
    await staking.close();
    await platform.close();
  });

  it('is served as OpenAPI 3.1 and documents every route the service mounts, and nothing it does not', async () => {
    const response = await staking.http.get('/openapi.json').expect(200);
    expect(response.body).toMatchObject({ openapi: '3.1.0', info: { title: 'Staking API' } });
    const documentedRoutes = Object.entries(response.body.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`))
      .sort();
    const mountedRoutes = listApiRoutes(staking.service.app)
      .map((route) => `${route.method} ${toOpenApiPath(route.path)}`)
      .sort();
    expect(mountedRoutes).toHaveLength(6);
    expect(documentedRoutes).toEqual(mountedRoutes);
  });

  it('answers readiness once its database, bus and revocations are ready', async () => {
    const ready = await staking.http.get('/readyz');
    expect([ready.status, ready.body]).toEqual([200, { status: 'ok' }]);
  });
});
