import { PASSWORD } from '@cloud/accounts/testing';
import { bearer, startTestPlatform, waitUntil, type TestPlatform } from '../src/testing';

describe('a deleted user', () => {
  let platform: TestPlatform;
  afterAll(() => platform.close());

  it('loses every node, and their client token stops working at the nodes API', async () => {
    platform = await startTestPlatform();
    const nodes = await platform.startNodes();
    const user = await platform.user();
    const other = await platform.user();
    const ids: string[] = [];
    for (const image of ['btc', 'bch']) {
      ids.push(((await nodes.http.post('/users/me/nodes').set(bearer(user.clientToken)).send({ image, jwt: true }).expect(200)).body as { id: string }).id);
    }
    const kept = (
      (await nodes.http.post('/users/me/nodes').set(bearer(other.clientToken)).send({ image: 'btc', jwt: true }).expect(200)).body as { id: string }
    ).id;

    await platform.accounts.http.delete('/users/me').set(bearer(user.accountToken)).send({ password: PASSWORD }).expect(204);

    await waitUntil(
      "the user's nodes are deleted",
      async () => {
        const rows = (await nodes.service.db('nodes').whereIn('id', ids).select('state')) as Array<{ state: string }>;
        return rows.length === 2 && rows.every((row) => row.state === 'deleted');
      },
      30_000,
      100,
    );
    for (const id of ids) expect(await nodes.service.driver.status(id)).toEqual({ state: 'absent' });
    expect(await nodes.service.db('nodes').where({ id: kept }).first()).toMatchObject({ state: expect.stringMatching(/^(provisioning|running)$/) });

    const refused = await nodes.http.get('/users/me/nodes').set(bearer(user.clientToken));
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'Unauthorized' });
  });
});
