import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bearer, startTestPlatform, waitUntil, type TestNodes, type TestPlatform, type TestUser } from '../src/testing';
import { FakeKubernetesApi } from './kubernetes/fake-api-server';

// The nodes service as an operator runs it on a cluster, NODE_DRIVER=kubernetes with credentials
// from KUBECONFIG, driving a fake API server through a node's whole life: the API's request, the
// reconciler's objects, the pod coming up, its log, and the deletion.
describe('the nodes service with NODE_DRIVER=kubernetes', () => {
  let fake: FakeKubernetesApi;
  let dir: string;
  let platform: TestPlatform;
  let nodes: TestNodes;
  let user: TestUser;
  const previousKubeconfig = process.env.KUBECONFIG;

  beforeAll(async () => {
    fake = new FakeKubernetesApi();
    await fake.start();
    dir = mkdtempSync(path.join(os.tmpdir(), 'kube-lifecycle-'));
    process.env.KUBECONFIG = fake.kubeconfig(dir);
    platform = await startTestPlatform();
    nodes = await platform.startNodes({ NODE_DRIVER: 'kubernetes', KUBE_NAMESPACE: 'cloud-nodes' });
    user = await platform.user();
  });
  afterAll(async () => {
    await platform.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
    if (previousKubeconfig === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = previousKubeconfig;
  });

  const nodeOf = async (id: string) =>
    (await nodes.http.get(`/users/me/nodes/${id}`).set(bearer(user.clientToken))).body as { state: string; software: string; large: boolean };
  /** The kubelet reports the node's pod Ready. */
  const readyPod = (id: string) =>
    fake.put('pods', {
      metadata: { name: `${id}-0`, labels: { 'app.kubernetes.io/managed-by': 'cloud-nodes', 'cloud.nodes/node-id': id } },
      spec: { containers: [{ name: 'node', image: 'docker.io/bitcoin/bitcoin:30.2', ports: [{ name: 'rpc', containerPort: 8332 }] }] },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: new Date().toISOString() }] },
    });

  it('offers what its catalogue runs, runs a node as a StatefulSet, reports it from its pod, and deletes every object', async () => {
    const chains = (await nodes.http.get('/chains').set(bearer(user.clientToken)).expect(200)).body as Array<{ image: string; software: string }>;
    expect(chains.find((option) => option.image === 'btc')?.software).toMatch(/^bitcoin-core-\d+\.\d+/);

    const { id } = (await nodes.http.post('/users/me/nodes').set(bearer(user.clientToken)).send({ image: 'btc' }).expect(200)).body as { id: string };
    await waitUntil('the StatefulSet is created', () => fake.get('statefulsets', id) !== undefined, 10_000, 50);
    const statefulSet = fake.get('statefulsets', id)!;
    expect(statefulSet.metadata.labels).toMatchObject({ 'cloud.nodes/node-id': id, 'cloud.nodes/user-id': user.id, 'cloud.nodes/image': 'btc' });
    for (const resource of ['services', 'secrets', 'networkpolicies']) expect(fake.list(resource).map((object) => object.metadata.name)).toContain(id);
    expect(fake.list('persistentvolumeclaims')).toHaveLength(1); // from the StatefulSet's volume claim template
    expect((await nodeOf(id)).state).toBe('provisioning');

    // The kubelet reports the pod Ready: the node runs at its Service.
    readyPod(id);
    await waitUntil('the node runs', async () => (await nodeOf(id)).state === 'running', 10_000, 50);
    const row = (await nodes.service.db('nodes').where({ id }).first('upstream_url')) as { upstream_url: string };
    expect(row.upstream_url).toBe(`http://${id}.cloud-nodes.svc:8332`);

    fake.logs.set(`${id}-0`, 'Bitcoin Core version v30.2.0\nBinding RPC on address 0.0.0.0 port 8332\nUpdateTip: height=1\n');
    const logs = await nodes.http.get(`/users/me/nodes/${id}/logs?lines=1`).set(bearer(user.clientToken)).expect(200);
    expect(logs.body).toEqual(['UpdateTip: height=1']);
    // A pod's log is the software's own: it is redacted as it is read.
    const more = await nodes.http.get(`/users/me/nodes/${id}/logs?lines=2`).set(bearer(user.clientToken)).expect(200);
    expect(more.body).toEqual(['Binding RPC on address 0.0.0.0 port [redacted: port]', 'UpdateTip: height=1']);

    await nodes.http.delete(`/users/me/nodes/${id}`).set(bearer(user.clientToken)).expect(200);
    await waitUntil('the node is gone', async () => (await nodes.http.get(`/users/me/nodes/${id}`).set(bearer(user.clientToken))).status === 404, 10_000, 50);
    for (const resource of ['statefulsets', 'services', 'secrets', 'networkpolicies', 'persistentvolumeclaims', 'pods']) {
      expect([resource, fake.list(resource).map((object) => object.metadata.name)]).toEqual([resource, []]);
    }
  }, 180_000);

  it('stops a node (replicas 0), resizes it, and starts it again with the large class on the same volume', async () => {
    const { id } = (await nodes.http.post('/users/me/nodes').set(bearer(user.clientToken)).send({ image: 'btc' }).expect(200)).body as { id: string };
    await waitUntil('the StatefulSet is created', () => fake.get('statefulsets', id) !== undefined, 10_000, 50);
    readyPod(id);
    await waitUntil('the node runs', async () => (await nodeOf(id)).state === 'running', 10_000, 50);
    const claims = () => fake.list('persistentvolumeclaims').filter((claim) => claim.metadata.name.includes(id));
    const [claim] = claims();
    const spec = () =>
      fake.get('statefulsets', id)?.spec as { replicas: number; template: { spec: { containers: Array<{ resources: { limits: { memory: string } } }> } } };
    const standardMemory = spec().template.spec.containers[0]?.resources.limits.memory;

    await nodes.http.post(`/users/me/nodes/${id}/stop`).set(bearer(user.clientToken)).expect(200);
    await waitUntil('the node is stopped', async () => (await nodeOf(id)).state === 'stopped', 10_000, 50);
    expect(spec().replicas).toBe(0);
    expect(fake.list('pods').filter((pod) => pod.metadata.name === `${id}-0`)).toEqual([]);

    await nodes.http.patch(`/users/me/nodes/${id}`).set(bearer(user.clientToken)).send({ large: true }).expect(200);
    expect(spec().replicas).toBe(0); // recorded only: it takes the class when started
    await nodes.http.post(`/users/me/nodes/${id}/start`).set(bearer(user.clientToken)).expect(200);
    await waitUntil('the StatefulSet is scaled up', () => spec().replicas === 1, 10_000, 50);
    expect(spec().template.spec.containers[0]?.resources.limits.memory).not.toBe(standardMemory);
    expect(claims()).toEqual([claim]);
    readyPod(id);
    await waitUntil('the node runs again', async () => (await nodeOf(id)).state === 'running', 10_000, 50);
    expect(await nodeOf(id)).toMatchObject({ large: true });
  }, 180_000);

  it('fails a node whose software keeps crashing, saying why, and scales it to zero so it stops crash-looping', async () => {
    const { id } = (await nodes.http.post('/users/me/nodes').set(bearer(user.clientToken)).send({ image: 'ltc' }).expect(200)).body as { id: string };
    await waitUntil('the StatefulSet is created', () => fake.get('statefulsets', id) !== undefined, 10_000, 50);
    fake.put('pods', {
      metadata: { name: `${id}-0`, labels: { 'app.kubernetes.io/managed-by': 'cloud-nodes', 'cloud.nodes/node-id': id } },
      spec: { containers: [{ name: 'node', image: 'litecoinproject/litecoin-core:0.21.4', ports: [{ name: 'rpc', containerPort: 9332 }] }] },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: new Date().toISOString() }],
        containerStatuses: [
          {
            name: 'node',
            image: 'litecoinproject/litecoin-core:0.21.4',
            imageID: '',
            ready: false,
            restartCount: 5,
            state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: { terminated: { exitCode: 1, reason: 'Error' } },
          },
        ],
      },
    });
    await waitUntil('the node has failed', async () => (await nodeOf(id)).state === 'failed', 10_000, 50);
    expect(((await nodes.http.get(`/users/me/nodes/${id}`).set(bearer(user.clientToken))).body as { stateReason: string }).stateReason).toMatch(
      /keeps exiting: 5 restarts/,
    );
    expect((fake.get('statefulsets', id)?.spec as { replicas: number }).replicas).toBe(0);
    // Its volume and objects stay until it is deleted.
    expect(
      fake
        .list('persistentvolumeclaims')
        .map((claim) => claim.metadata.name)
        .some((name) => name.includes(id)),
    ).toBe(true);
  }, 180_000);
});
