import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { parseAllDocuments } from 'yaml';
import { createLogger } from '@cloud/logging';
import { ImageUnavailableError, type NodeStatus } from '../src/domain/node-driver';
import { createKubernetesDriver, defaultCatalogue, KubernetesApiError, type KubernetesDriver, type KubernetesDriverOptions } from '../src/drivers/kubernetes';
import { nodeRpcAuth } from '../src/drivers/kubernetes/credentials';
import { findOnPath } from '../src/drivers/local/software';
import { choosePort } from '../src/drivers/local/ports';
import { FakeKubernetesApi, type WireObject } from './kubernetes/fake-api-server';
import { asProxy, jsonRpc, waitFor as waitForValue } from './rpc-client';
import { NAMESPACE, SECRET_KEY, SETTINGS, STAKING_TLS, USER_ID, goldenFile, nodeIdOf } from './kubernetes/fixtures';

const BTC = nodeIdOf('btc');
const AVALANCHE = nodeIdOf('avalanche');
const btcSpec = { id: BTC, image: 'btc' as const, large: false, dev: false, txindex: false, userId: USER_ID };
const podName = `${BTC}-0`;

let fake: FakeKubernetesApi;
let dir: string;
let now: number;
const drivers: KubernetesDriver[] = [];

function newDriver(options: Partial<KubernetesDriverOptions> = {}): KubernetesDriver {
  const driver = createKubernetesDriver({
    ...SETTINGS,
    secretKey: SECRET_KEY,
    logger: createLogger({ service: 'test', level: 'silent' }),
    kubeconfigFile: fake.kubeconfig(dir),
    requestTimeoutMs: 1_000,
    clock: () => now,
    ...options,
  });
  drivers.push(driver);
  return driver;
}

/** A pod as the StatefulSet controller and kubelet would report it. */
function putPod(status: object, name = podName): WireObject {
  return fake.put('pods', {
    metadata: { name, labels: { 'app.kubernetes.io/managed-by': 'cloud-nodes', 'cloud.nodes/node-id': BTC } },
    spec: { containers: [{ name: 'node', image: 'docker.io/bitcoin/bitcoin:30.2', ports: [{ name: 'rpc', containerPort: 8332 }] }] },
    status,
  });
}

const condition = (type: string, status: 'True' | 'False', extra: object = {}) => ({ type, status, lastTransitionTime: new Date(now).toISOString(), ...extra });

/** The golden file's documents, as the JSON the API server receives. */
function golden(image: 'btc', size: 'standard' | 'large'): unknown[] {
  return parseAllDocuments(readFileSync(goldenFile(image, size), 'utf8')).map((document) => document.toJS() as unknown);
}

beforeEach(async () => {
  fake = new FakeKubernetesApi();
  await fake.start();
  dir = mkdtempSync(path.join(os.tmpdir(), 'kube-driver-'));
  now = Date.parse('2026-11-23T10:00:00Z');
});

afterEach(async () => {
  await Promise.all(drivers.splice(0).map((driver) => driver.close()));
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the kubernetes driver against a fake API server', () => {
  it('creates a node: Secret, Service, NetworkPolicy, then the StatefulSet, exactly as the golden file has them', async () => {
    const driver = newDriver();
    expect(await driver.status(BTC)).toEqual({ state: 'absent' });
    await driver.ensure(btcSpec);

    expect(fake.calls('POST').map((request) => request.resource)).toEqual(['secrets', 'services', 'networkpolicies', 'statefulsets']);
    expect(fake.created()).toEqual(golden('btc', 'standard'));
    expect(fake.requests.every((request) => request.namespace === NAMESPACE && request.authorization === 'Bearer fake-token')).toBe(true);
    // The StatefulSet controller's part: the volume claim, labelled like the rest.
    expect(fake.get('persistentvolumeclaims', `data-${BTC}-0`)?.metadata.labels).toMatchObject({ 'cloud.nodes/node-id': BTC, 'cloud.nodes/user-id': USER_ID });
    expect(await driver.status(BTC)).toEqual({ state: 'starting' });
  });

  it('runs a txindex node with -txindex in its StatefulSet, and refuses a node made on a dev chain', async () => {
    const driver = newDriver();
    await driver.ensure({ ...btcSpec, txindex: true });
    const statefulSet = fake.get('statefulsets', BTC) as { spec?: { template?: { spec?: { containers?: Array<{ args?: string[] }> } } } } | undefined;
    const container = statefulSet?.spec?.template?.spec?.containers?.[0];
    expect(container?.args).toContain('-txindex');
    const devNode = { ...btcSpec, id: nodeIdOf('ltc'), image: 'ltc' as const, dev: true };
    await expect(driver.ensure(devNode)).rejects.toThrow(
      new ImageUnavailableError(`node ${devNode.id} was created on a dev chain, which the kubernetes driver does not run`),
    );
    expect(fake.get('statefulsets', devNode.id)).toBeUndefined();
  });

  it('ensures a node it already ensured without calling the API again', async () => {
    const driver = newDriver();
    await driver.ensure(btcSpec);
    const calls = fake.requests.length;
    await driver.ensure(btcSpec);
    expect(fake.requests.length).toBe(calls);
  });

  it('reports the node from its pod: starting until Ready, then running at its Service', async () => {
    const driver = newDriver();
    await driver.ensure(btcSpec);
    putPod({ phase: 'Pending', conditions: [condition('PodScheduled', 'True'), condition('Ready', 'False')] });
    expect(await driver.status(BTC)).toEqual({ state: 'starting' });

    putPod({ phase: 'Running', conditions: [condition('PodScheduled', 'True'), condition('Ready', 'True')] });
    expect(await driver.status(BTC)).toEqual({ state: 'running', endpoint: { url: `http://${BTC}.${NAMESPACE}.svc:8332` } });
    expect(fake.calls('GET', 'pods').at(-1)?.query.get('labelSelector')).toBe(`app.kubernetes.io/managed-by=cloud-nodes,cloud.nodes/node-id=${BTC}`);
  });

  it('reports a node failed when its software keeps crashing, but not on its first restarts', async () => {
    const driver = newDriver({ crashRestarts: 5 });
    await driver.ensure(btcSpec);
    const crashing = (restartCount: number) => ({
      phase: 'Running',
      conditions: [condition('PodScheduled', 'True'), condition('Ready', 'False')],
      containerStatuses: [
        {
          name: 'node',
          image: 'docker.io/bitcoin/bitcoin:30.2',
          imageID: '',
          ready: false,
          restartCount,
          state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container' } },
          lastState: { terminated: { exitCode: 1, reason: 'Error' } },
        },
      ],
    });
    putPod(crashing(2));
    expect(await driver.status(BTC)).toEqual({ state: 'starting' });
    putPod(crashing(5));
    expect(await driver.status(BTC)).toEqual({ state: 'failed', reason: 'the node software (node) keeps exiting: 5 restarts; last exit code 1 (Error)' });
  });

  it('reports a node failed when its image cannot be pulled', async () => {
    const driver = newDriver();
    await driver.ensure(btcSpec);
    putPod({
      phase: 'Pending',
      conditions: [condition('PodScheduled', 'True'), condition('Ready', 'False')],
      containerStatuses: [
        {
          name: 'node',
          image: 'docker.io/bitcoin/bitcoin:30.2',
          imageID: '',
          ready: false,
          restartCount: 0,
          state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "docker.io/bitcoin/bitcoin:30.2"' } },
        },
      ],
    });
    expect(await driver.status(BTC)).toEqual({
      state: 'failed',
      reason: 'the image docker.io/bitcoin/bitcoin:30.2 cannot be pulled (ImagePullBackOff: Back-off pulling image "docker.io/bitcoin/bitcoin:30.2")',
    });
  });

  it('reports a node failed when no machine can take it for long', async () => {
    const driver = newDriver({ unschedulableSeconds: 600 });
    await driver.ensure(btcSpec);
    const message = '0/3 nodes are available: 3 Insufficient memory.';
    putPod({ phase: 'Pending', conditions: [condition('PodScheduled', 'False', { reason: 'Unschedulable', message })] });
    expect(await driver.status(BTC)).toEqual({ state: 'starting' });
    now += 600_000;
    expect(await driver.status(BTC)).toEqual({ state: 'failed', reason: `no machine in the cluster can run the node: ${message}` });
  });

  it('scales a failed node to zero once, keeping its objects, and takes a node that is gone as stopped', async () => {
    const driver = newDriver();
    await driver.stop(BTC); // nothing there yet
    await driver.ensure(btcSpec);
    await driver.stop(BTC);
    await driver.stop(BTC);
    expect((fake.get('statefulsets', BTC)?.spec as { replicas: number }).replicas).toBe(0);
    expect(fake.calls('PUT', 'statefulsets')).toHaveLength(1);
    expect(fake.get('services', BTC)).toBeDefined();
  });

  it('stops a node (replicas 0) and starts it again (replicas 1) on the same volume, with the same Secret', async () => {
    const driver = newDriver();
    await driver.ensure(btcSpec);
    putPod({ phase: 'Running', conditions: [condition('Ready', 'True')] });
    const claim = fake.get('persistentvolumeclaims', `data-${BTC}-0`);
    const secret = fake.get('secrets', BTC);
    await driver.stop(BTC);
    expect((fake.get('statefulsets', BTC)?.spec as { replicas: number }).replicas).toBe(0);
    expect(await driver.status(BTC)).toEqual({ state: 'absent' }); // scaled to zero, its pod gone

    await driver.ensure(btcSpec);
    const statefulSet = fake.get('statefulsets', BTC);
    expect((statefulSet?.spec as { replicas: number }).replicas).toBe(1);
    expect(statefulSet?.spec).toMatchObject({ volumeClaimTemplates: [{ metadata: { name: 'data' } }] });
    expect(fake.list('persistentvolumeclaims')).toEqual([claim]);
    expect(fake.get('secrets', BTC)).toEqual(secret);
    expect(fake.calls('DELETE')).toEqual([]);
  });

  it('resizes a stopped node: the large resource class on the same StatefulSet and volume', async () => {
    const driver = newDriver();
    await driver.ensure(btcSpec);
    const claim = fake.get('persistentvolumeclaims', `data-${BTC}-0`);
    const resources = () =>
      (fake.get('statefulsets', BTC)?.spec as { template: { spec: { containers: Array<{ resources: unknown }> } } }).template.spec.containers[0]?.resources;
    const standard = resources();
    const uid = fake.get('statefulsets', BTC)?.metadata.uid;
    await driver.stop(BTC);
    await driver.ensure({ ...btcSpec, large: true });

    const large = golden('btc', 'large').find((object) => (object as { kind: string }).kind === 'StatefulSet') as {
      spec: { template: { spec: { containers: Array<{ resources: unknown }> } } };
    };
    expect(resources()).toEqual(large.spec.template.spec.containers[0]?.resources);
    expect(resources()).not.toEqual(standard);
    expect((fake.get('statefulsets', BTC)?.spec as { replicas: number }).replicas).toBe(1);
    // Replaced in place (the API server refuses a changed volume template), never recreated.
    expect(fake.list('statefulsets').map((each) => each.metadata.uid)).toEqual([uid]);
    expect(fake.list('persistentvolumeclaims')).toEqual([claim]);
  });

  it('reads the last lines of the node container’s log', async () => {
    const driver = newDriver();
    await driver.ensure(btcSpec);
    expect(await driver.logs(BTC, 10)).toEqual([]); // no pod yet
    putPod({ phase: 'Pending' });
    expect(await driver.logs(BTC, 10)).toEqual([]); // the container is waiting to start
    fake.logs.set(podName, 'Bitcoin Core version v30.2.0\nLoading block index…\nUpdateTip: height=1\n');
    expect(await driver.logs(BTC, 2)).toEqual(['Loading block index…', 'UpdateTip: height=1']);
    const request = fake.calls('GET', 'pods').at(-1);
    expect(request?.subresource).toBe('log');
    expect(request?.query.get('tailLines')).toBe('2');
    expect(request?.query.get('container')).toBe('node');
  });

  it('destroys every object of the node, its volume at once without a grace, and succeeds when it is already gone', async () => {
    const driver = newDriver();
    await driver.ensure(btcSpec);
    putPod({ phase: 'Running' });
    await driver.destroy(BTC);
    for (const resource of ['statefulsets', 'services', 'networkpolicies', 'secrets', 'persistentvolumeclaims', 'pods']) {
      expect(fake.list(resource)).toEqual([]);
    }
    expect(await driver.status(BTC)).toEqual({ state: 'absent' });
    await driver.destroy(BTC);
  });

  it('keeps a destroyed node’s volume for its grace, then deletes it on a later destroy or a sweep', async () => {
    const driver = newDriver({ pvcDeleteGraceSeconds: 60, sweepIntervalMs: 20 });
    await driver.ensure(btcSpec);
    await driver.destroy(BTC);
    const claim = `data-${BTC}-0`;
    expect(fake.list('statefulsets')).toEqual([]);
    expect(fake.get('persistentvolumeclaims', claim)?.metadata.labels?.['cloud.nodes/delete-after']).toBe(String(now / 1000 + 60));

    await driver.destroy(BTC); // repeated before the grace is over: still kept
    expect(fake.get('persistentvolumeclaims', claim)).toBeDefined();
    now += 60_000;
    await driver.destroy(BTC);
    expect(fake.get('persistentvolumeclaims', claim)).toBeUndefined();

    // Another node's volume goes by the sweep alone, whichever instance destroyed it.
    const other = { ...btcSpec, id: nodeIdOf('bch') };
    await driver.ensure(other);
    await driver.destroy(other.id);
    expect(fake.get('persistentvolumeclaims', `data-${other.id}-0`)).toBeDefined();
    now += 60_000;
    await waitFor(() => fake.get('persistentvolumeclaims', `data-${other.id}-0`) === undefined);
  });

  it('adopts what an earlier instance created: no second StatefulSet, nothing rewritten', async () => {
    await newDriver().ensure(btcSpec);
    const before = fake.get('statefulsets', BTC);
    fake.requests.length = 0;

    const restarted = newDriver();
    await restarted.ensure(btcSpec);
    expect(fake.calls('POST').map((request) => request.resource)).toEqual(['secrets', 'services', 'networkpolicies', 'statefulsets']); // each 409
    expect(fake.calls('PUT')).toEqual([]);
    expect(fake.list('statefulsets')).toHaveLength(1);
    expect(fake.get('statefulsets', BTC)).toEqual(before);
  });

  it('brings an adopted StatefulSet up to date when the catalogue changed, keeping what cannot change', async () => {
    await newDriver().ensure(btcSpec);
    const catalogue = defaultCatalogue();
    const software = catalogue.software['bitcoin-core'];
    if (!software) throw new Error('no bitcoin-core in the catalogue');
    catalogue.software['bitcoin-core'] = { ...software, image: 'docker.io/bitcoin/bitcoin:31.1', label: 'bitcoin-core-31.1' };
    const before = fake.get('statefulsets', BTC) as WireObject & { spec: { volumeClaimTemplates: unknown; selector: unknown } };

    await newDriver({ catalogue }).ensure(btcSpec);
    expect(fake.calls('PUT').map((request) => request.resource)).toEqual(['statefulsets']);
    const after = fake.get('statefulsets', BTC) as WireObject & {
      spec: { volumeClaimTemplates: unknown; selector: unknown; template: { spec: { containers: { image: string }[] } } };
    };
    expect(after.spec.template.spec.containers[0]?.image).toBe('docker.io/bitcoin/bitcoin:31.1');
    expect(after.spec.volumeClaimTemplates).toEqual(before.spec.volumeClaimTemplates);
    expect(after.spec.selector).toEqual(before.spec.selector);
    expect(after.metadata.uid).toBe(before.metadata.uid);
  });

  it('does not touch an object with the node’s name that it did not create', async () => {
    fake.put('services', { metadata: { name: BTC, labels: { app: 'someone-else' } }, spec: {} });
    await expect(newDriver().ensure(btcSpec)).rejects.toThrow(/a Service named .* exists that cloud-nodes did not create/);
    expect(fake.list('statefulsets')).toEqual([]);
  });

  it('writes a validator’s staking pair once, asks the staking service only then, and lets the staking pods in', async () => {
    const stakingTls = jest.fn(() => Promise.resolve(STAKING_TLS));
    const validator = { id: AVALANCHE, image: 'avalanche' as const, large: false, dev: false, txindex: false, stakingTls };
    await newDriver().ensure(validator);
    expect(fake.get('secrets', AVALANCHE)?.stringData).toEqual({ 'staker.crt': STAKING_TLS.certificatePem, 'staker.key': STAKING_TLS.keyPem });
    const policy = fake.get('networkpolicies', AVALANCHE) as WireObject & { spec: { ingress: { from?: unknown[] }[] } };
    expect(policy.spec.ingress[0]?.from).toEqual([
      { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'node-proxy' } } },
      { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'nodes' } } },
      { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'staking' } } },
    ]);

    fake.requests.length = 0;
    await newDriver().ensure(validator);
    expect(stakingTls).toHaveBeenCalledTimes(1);
    expect(fake.calls('POST', 'secrets')).toEqual([]);
    expect(fake.calls('PUT')).toEqual([]);
  });

  it('fails clearly on 403 (RBAC), and the reconciler’s next ensure picks up where it stopped', async () => {
    const driver = newDriver();
    fake.failNext(
      { method: 'POST', resource: 'statefulsets' },
      403,
      'Forbidden',
      'statefulsets.apps is forbidden: User "system:serviceaccount:cloud:nodes" cannot create resource "statefulsets" in API group "apps" in the namespace "cloud-nodes"',
    );
    const error: unknown = await driver.ensure(btcSpec).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(KubernetesApiError);
    expect((error as KubernetesApiError).status).toBe(403);
    expect((error as Error).message).toMatch(
      /may not create StatefulSet in namespace cloud-nodes \(403 Forbidden: statefulsets.apps is forbidden.*\); give its service account a Role there/,
    );
    expect(fake.list('statefulsets')).toEqual([]);

    await driver.ensure(btcSpec);
    expect(fake.list('statefulsets')).toHaveLength(1);
  });

  it('gives up on a call the API server does not answer, within the request timeout', async () => {
    const driver = newDriver({ requestTimeoutMs: 200 });
    fake.hangNext({ method: 'GET', resource: 'pods' });
    const started = Date.now();
    await expect(driver.status(BTC)).rejects.toThrow(/did not answer within 200 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await driver.status(BTC)).toEqual({ state: 'absent' }); // the next call goes through
  });

  it('aborts calls under way when it closes', async () => {
    const driver = newDriver({ requestTimeoutMs: 5_000 });
    fake.hangNext({ method: 'GET', resource: 'pods' });
    const status = driver.status(BTC);
    await waitFor(() => fake.calls('GET', 'pods').length === 1);
    await driver.close();
    await expect(status).rejects.toThrow(/could not list Pods: the driver closed/);
    await expect(driver.ensure(btcSpec)).rejects.toThrow(/closed/);
  });

  it('offers exactly what its catalogue runs, and refuses an image it does not have', async () => {
    const catalogue = defaultCatalogue();
    delete catalogue.images.ltc;
    const driver = newDriver({ catalogue });
    const chains = await driver.chains();
    expect(chains.map((option) => option.image)).toEqual(['btc', 'bch', 'btctestnet', 'bchtestnet', 'eth', 'avalanche', 'avalanchefuji']);
    expect(chains.find((option) => option.image === 'eth')).toEqual({
      image: 'eth',
      chain: 'eth',
      network: 'mainnet',
      software: 'geth-1.17.5',
      dev: false,
      pruned: false,
    });
    // The cluster runs the real networks, whole: nothing there is a dev chain.
    expect(chains.filter((option) => option.dev || option.pruned)).toEqual([]);
    await expect(driver.ensure({ id: nodeIdOf('ltc'), image: 'ltc', large: false, dev: false, txindex: false })).rejects.toThrow(ImageUnavailableError);
    expect(fake.requests).toEqual([]);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

// Real Litecoin Core: LITECOIND_PATH, else litecoind on PATH. CI must have it; elsewhere the test is skipped.
const litecoind = process.env.LITECOIND_PATH || findOnPath('litecoind');
if (!litecoind && process.env.CI) throw new Error('litecoind is missing: install it or set LITECOIND_PATH');
const describeWithLitecoind = litecoind ? describe : describe.skip;

describeWithLitecoind(
  `the kubernetes driver reads a node's sync status at its pod (real litecoind)${litecoind ? '' : ' (skipped: litecoind not found)'}`,
  () => {
    const LTC = nodeIdOf('ltc');
    // A guard against a hang, not a speed goal: the first reading is asked again until this is spent.
    const LITECOIND_READS = { syncReadTimeoutMs: 30_000 };
    // What the driver logged (a failed reading says why there) and what litecoind logged: shown with
    // a reading that is missing, which CI has seen on a loaded machine and this machine has not.
    let logged: string[];
    const recordingLogger = () =>
      createLogger({
        service: 'test',
        level: 'debug',
        stream: new Writable({
          write(chunk: Buffer, _encoding, callback) {
            logged.push(chunk.toString('utf8').trim());
            callback();
          },
        }),
      });
    const litecoindLog = () => {
      const file = path.join(dir, 'regtest', 'debug.log');
      return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-40) : [];
    };
    /** The status, or a failure that says why its reading is missing. */
    const withReading = (status: NodeStatus): NodeStatus => {
      if ('sync' in status && status.sync) return status;
      throw new Error(`no sync reading in ${JSON.stringify(status)}\ndriver's log:\n${logged.join('\n')}\nlitecoind's log:\n${litecoindLog().join('\n')}`);
    };
    let node: ChildProcess;
    let rpcPort: number;

    // The node's pod, as the fake API server reports it: the container on `port` of 127.0.0.1.
    const putLtcPod = (uid: string, port: number) =>
      fake.put('pods', {
        metadata: { name: `${LTC}-0`, uid, labels: { 'app.kubernetes.io/managed-by': 'cloud-nodes', 'cloud.nodes/node-id': LTC, 'cloud.nodes/image': 'ltc' } },
        spec: { containers: [{ name: 'node', image: 'docker.io/uphold/litecoin-core:0.21', ports: [{ name: 'rpc', containerPort: port }] }] },
        status: { phase: 'Running', podIP: '127.0.0.1', conditions: [condition('PodScheduled', 'True'), condition('Ready', 'True')] },
      });

    beforeEach(async () => {
      // A node just started, with no peer yet: in initial block download, as a real node is until its network tells it the tip.
      logged = [];
      rpcPort = await choosePort(undefined);
      node = spawn(
        litecoind!,
        [
          '-regtest',
          `-datadir=${dir}`,
          ...['-connect=0', '-listen=0', '-dnsseed=0', '-disablewallet', '-printtoconsole=0'],
          ...['-server', '-rpcbind=127.0.0.1', '-rpcallowip=127.0.0.1', `-rpcport=${rpcPort}`, `-rpcauth=${nodeRpcAuth(SECRET_KEY, LTC)}`],
        ],
        { stdio: 'ignore' },
      );
    });

    afterEach(async () => {
      if (node.exitCode !== null) return;
      const exited = once(node, 'exit');
      node.kill('SIGTERM');
      await exited;
    });

    it('reports a node still in initial block download with its reading, and the new reading once it has caught up', async () => {
      const driver = newDriver({ ...LITECOIND_READS, logger: recordingLogger() });
      const rpc = asProxy({ url: `http://127.0.0.1:${rpcPort}` }, SECRET_KEY, LTC);
      await waitForValue('litecoind to answer', async () => (await jsonRpc(rpc, 'getblockcount').catch(() => undefined))?.result);
      await driver.ensure({ id: LTC, image: 'ltc', large: false, dev: false, txindex: false });
      putLtcPod('pod-1', rpcPort);

      // The first reading of a pod is awaited, by every caller asking meanwhile too: a syncing node is never announced `running` without it.
      const [first, meanwhile] = (await Promise.all([driver.status(LTC), driver.status(LTC)])).map(withReading);
      expect(meanwhile).toEqual(first);
      expect(first).toEqual({
        state: 'running',
        endpoint: { url: `http://${LTC}.${NAMESPACE}.svc:${rpcPort}` },
        sync: { height: 0, bestKnownHeight: 0, progress: 0, peers: 0, syncing: true, checkedAt: expect.any(Date) as Date },
      });

      // It gets the network's tip (here: mines it), and leaves initial block download.
      expect((await jsonRpc(rpc, 'generatetodescriptor', [1, 'raw(51)'])).error).toBeUndefined();
      // Within the read interval the last reading answers, without calling the node.
      expect(await driver.status(LTC)).toMatchObject({ sync: { height: 0, syncing: true } });
      // After it, a new reading is taken (in the background: the pass is not held up by the node's RPC).
      const caughtUp = await waitForValue('a new reading', async () => {
        now += 5_000;
        const status = await driver.status(LTC);
        return status.state === 'running' && status.sync?.syncing === false ? status.sync : undefined;
      });
      expect(caughtUp).toMatchObject({ height: 1, bestKnownHeight: 1, progress: 1, peers: 0, syncing: false });
    });

    it('reads a new pod afresh, and reports a node it cannot reach without a reading rather than failing', async () => {
      // A short read timeout: the first pod's reading, at a closed port, is retried until it is spent.
      const driver = newDriver({ syncReadTimeoutMs: 3_000, logger: recordingLogger() });
      const rpc = asProxy({ url: `http://127.0.0.1:${rpcPort}` }, SECRET_KEY, LTC);
      await waitForValue('litecoind to answer', async () => (await jsonRpc(rpc, 'getblockcount').catch(() => undefined))?.result);
      await driver.ensure({ id: LTC, image: 'ltc', large: false, dev: false, txindex: false });
      const closedPort = await choosePort(undefined);
      putLtcPod('pod-1', closedPort);
      expect(await driver.status(LTC)).toEqual({ state: 'running', endpoint: { url: `http://${LTC}.${NAMESPACE}.svc:${closedPort}` } });
      const warned = logged.map((line) => JSON.parse(line) as { level: string }).filter((line) => line.level === 'warn');
      expect(warned).toEqual([
        expect.objectContaining({
          message: expect.stringMatching(/^cannot read the node's sync status at its RPC/) as string,
          error: expect.objectContaining({ code: 'ECONNREFUSED' }) as object,
        }),
      ]);

      // Rescheduled (a new pod), now where its RPC answers: read at once, not after the interval (the clock stands still).
      putLtcPod('pod-2', rpcPort);
      expect(withReading(await driver.status(LTC))).toMatchObject({ state: 'running', sync: { height: 0, syncing: true } });
    });
  },
);
