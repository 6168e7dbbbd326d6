import { compareRoutesWithDocument, listApiRoutes, type OpenApiDocument } from '@cloud/http';
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
    expect(listApiRoutes(staking.service.app)).toHaveLength(6);
    expect(compareRoutesWithDocument(staking.service.app, response.body as OpenApiDocument)).toEqual({ undocumented: [], unmounted: [] });
  });

  it('answers readiness once its database, bus and revocations are ready', async () => {
    const ready = await staking.http.get('/readyz');
    expect([ready.status, ready.body]).toEqual([200, { status: 'ok' }]);
  });
});
