import { IMAGES } from '@cloud/chains';
import type { TestStaking } from '@cloud/staking/testing';
import type { CreatedNode, ProxyPlatform, TestUser } from './harness';
import { waitUntil } from './harness';

/** Creates an avalanche validator through the staking service, as a user would, and waits until its node runs. */
export async function createValidatorNode(
  platform: ProxyPlatform,
  staking: TestStaking,
  user: TestUser,
  image: 'avalanche' | 'avalanchefuji',
): Promise<CreatedNode> {
  const created = await staking.http
    .post(`/staking/avalanche/${IMAGES[image].network}/validators`)
    .set('authorization', `Bearer ${user.clientToken}`)
    .expect(200);
  const { nodeId, nodePass } = created.body as { nodeId: string; nodePass: string };
  let node: CreatedNode | undefined;
  await waitUntil(
    `validator node ${nodeId} to run`,
    async () => {
      node = (await platform.nodes.http.get(`/users/me/nodes/${nodeId}`).set('authorization', `Bearer ${user.clientToken}`)).body as CreatedNode;
      return node.state === 'running';
    },
    60_000,
    100,
  );
  return { ...node!, nodePass };
}
