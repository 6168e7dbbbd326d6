import { createPrivateKey, X509Certificate } from 'node:crypto';
import { message, type AnyBusMessage } from '@cloud/bus';
import { bearer, sha256, startTestPlatform, waitUntil, type TestPlatform } from '@cloud/nodes/testing';
import { startTestStaking, type TestStaking } from '../src/testing';
import { listed, startFakeAvalancheNode, type FakeAvalancheNode } from './fake-avalanche-node';

// The same flow with the services talking over RabbitMQ (and PostgreSQL when DATABASE_URL is
// set), as separate deployments would: the nodes service's request and its key, the node's
// announcements, the deletion, and the call events.
describe('staking over RabbitMQ', () => {
  let platform: TestPlatform;
  let staking: TestStaking;
  let node: FakeAvalancheNode;
  const heard: AnyBusMessage[] = [];
  afterAll(async () => {
    await node.close();
    await staking.close();
    await platform.close();
  });

  it('creates a validator, serves its key, follows its node and the chain, and deletes it', async () => {
    platform = await startTestPlatform({ rabbitmq: true });
    expect(platform.bus.transport).toBe('rabbitmq');
    await platform.bus.subscribe({ name: 'staking-rabbit-test', bindings: ['validator.*'], handle: async (messages) => void heard.push(...messages) });
    staking = await startTestStaking(platform);
    expect(staking.service.bus.transport).toBe('rabbitmq');
    node = await startFakeAvalancheNode();
    const user = await platform.user();
    const base = '/staking/avalanche/mainnet/validators';

    const created = (await staking.http.post(base).set(bearer(user.clientToken)).expect(200)).body as {
      nodeId: string;
      chainNodeId: string;
      nodeUser: string;
      nodePass: string;
    };
    await waitUntil('validator.created is heard', () => heard.some((each) => each.kind === 'validator.created'), 15_000, 50);
    expect(heard.find((each) => each.kind === 'validator.created')?.payload).toEqual({
      nodeId: created.nodeId,
      userId: user.id,
      image: 'avalanche',
      basic: { user: created.nodeUser, passwordSha256: sha256(created.nodePass) },
    });

    const tls = await platform.bus.request('staking.validator-tls', { nodeId: created.nodeId });
    expect(new X509Certificate(tls.certificatePem).checkPrivateKey(createPrivateKey(tls.keyPem))).toBe(true);

    const route = {
      nodeId: created.nodeId,
      userId: user.id,
      image: 'avalanche',
      chain: 'avalanche',
      revision: 1,
      state: 'running' as const,
      basic: null,
      upstream: node.url,
    };
    node.validators = [listed(created.chainNodeId, platform.clock() - 60_000, platform.clock() + 600_000)];
    await platform.bus.publish([message('node.running', { ...route, address: `${created.nodeId}.nodes.localhost` })]);
    await waitUntil(
      'the node runs, and validates',
      async () => {
        const validator = (await staking.http.get(`${base}/${created.nodeId}`).set(bearer(user.clientToken)).expect(200)).body as {
          state: string;
          registration: { status: string };
        };
        platform.clock.advance(10_000); // past the cached answer
        return validator.state === 'running' && validator.registration.status === 'validating';
      },
      15_000,
      50,
    );
    expect((await staking.http.delete(`${base}/${created.nodeId}`).set(bearer(user.clientToken))).status).toBe(409);

    // Its period over, the chain no longer lists it: ended, and deletable.
    node.validators = [];
    platform.clock.advance(600_000);
    await staking.http.delete(`${base}/${created.nodeId}`).set(bearer(user.clientToken)).expect(200);
    await waitUntil('validator.deleted is heard', () => heard.some((each) => each.kind === 'validator.deleted'), 15_000, 50);
    await expect(platform.bus.request('staking.validator-tls', { nodeId: created.nodeId })).rejects.toThrow(`no validator ${created.nodeId}`);

    await waitUntil(
      'the calls are in the event list',
      async () => {
        const events = (await platform.accounts.http.get('/users/me/events?service=cloud-staking').set(bearer(user.accountToken)).expect(200)).body as Array<{
          input: { method: string; resourceId?: string };
          output: { httpStatusCode: number };
        }>;
        return events.some((event) => event.input.method === 'DELETE' && event.input.resourceId === created.nodeId && event.output.httpStatusCode === 409);
      },
      20_000,
      100,
    );
  });
});
