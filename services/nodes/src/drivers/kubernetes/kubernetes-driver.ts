import type { V1ObjectMeta, V1PersistentVolumeClaim, V1Pod, V1StatefulSet } from '@kubernetes/client-node' with { 'resolution-mode': 'import' };
import type { Logger } from '@cloud/logging';
import { IMAGE_IDS, IMAGES, isImageId } from '@cloud/chains';
import { nodeRpcAuthorization } from '@cloud/node-rpc-auth';
import type { SyncStatus } from '../../data-access/node-record';
import { ImageUnavailableError, type ChainOption, type NodeDriver, type NodeSpec, type NodeStatus } from '../../domain/node-driver';
import { catalogueImage, catalogueSoftware, defaultCatalogue } from './catalogue';
import { engineJwtSecret, nodeRpcAuth } from './credentials';
import { isConflict, isNotFound, KubernetesApiError, loadKubernetesClient, openKubeApi, type KubeApi, type ObjectCalls } from './kube-api';
import { nodeManifests, type NodeManifests } from './manifests';
import {
  DELETE_AFTER_LABEL,
  IMAGE_LABEL,
  MANAGED_BY,
  MANAGED_BY_LABEL,
  MANIFEST_HASH_ANNOTATION,
  NODE_CONTAINER,
  NODE_ID_LABEL,
  isObjectName,
  labelSelector,
  objectName,
  selectorLabels,
} from './names';
import type { KubernetesDriverOptions, KubernetesSettings } from './options';
import { podNodeStatus, podRpcPort } from './pod-status';
import { PerNodeQueue } from '../per-node-queue';
import { SyncReadings } from './sync-readings';

type KubeObject = { metadata?: V1ObjectMeta };

/**
 * Runs each node as a one-replica StatefulSet in `namespace`, with its volume, Secret, Service and
 * NetworkPolicy, all named after the node and labelled with it. The cluster keeps the nodes
 * running; the driver only creates, reads and deletes objects, so any instance of the service
 * drives any node, and a restarted one adopts what it finds (create answers 409: the object is
 * compared with what it would create, and updated when they differ).
 */
export class KubernetesDriver implements NodeDriver {
  readonly name = 'kubernetes';
  readonly namespace: string;
  private readonly settings: KubernetesSettings;
  private readonly logger: Logger;
  private readonly closing = new AbortController();
  private api: Promise<KubeApi> | undefined;
  // Nodes this instance has ensured since it started: the reconciler ensures every node on every
  // pass, and after the first time that is one status read, not five writes.
  private readonly ensured = new Set<string>();
  // Each node's ensure and destroy run one after another, never interleaved.
  private readonly queue = new PerNodeQueue();
  private readonly syncReadings: SyncReadings;
  private readonly sweeper: NodeJS.Timeout | undefined;
  private sweeping = false;
  private closed = false;

  constructor(options: KubernetesDriverOptions) {
    const pvcDeleteGraceSeconds = options.pvcDeleteGraceSeconds ?? 0;
    const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
    this.settings = {
      ...options,
      catalogue: options.catalogue ?? defaultCatalogue(),
      pvcDeleteGraceSeconds,
      requestTimeoutMs,
      syncReadTimeoutMs: options.syncReadTimeoutMs ?? Math.min(requestTimeoutMs, 2_000),
      crashRestarts: options.crashRestarts ?? 5,
      unschedulableSeconds: options.unschedulableSeconds ?? 900,
      sweepIntervalMs: options.sweepIntervalMs ?? Math.min(60_000, Math.max(1_000, pvcDeleteGraceSeconds * 1000)),
      clock: options.clock ?? Date.now,
    };
    this.namespace = options.namespace;
    this.logger = options.logger.child({ driver: 'kubernetes', namespace: options.namespace });
    this.syncReadings = new SyncReadings(this.logger, this.settings.clock, this.settings.syncReadTimeoutMs);
    if (pvcDeleteGraceSeconds > 0) {
      this.sweeper = setInterval(() => void this.sweepVolumes(), this.settings.sweepIntervalMs);
      this.sweeper.unref();
    }
  }

  /** Exactly what the catalogue runs, named by the software of each image's node container. */
  chains(): Promise<ChainOption[]> {
    const { catalogue } = this.settings;
    return Promise.resolve(
      IMAGE_IDS.flatMap((image) => {
        const entry = catalogueImage(catalogue, image);
        const main = entry?.containers[0];
        if (!main) return [];
        const { chain, network } = IMAGES[image];
        // The cluster runs every image's own network, whole (not pruned).
        return [{ image, chain, network, software: catalogueSoftware(catalogue, main).label, dev: false, pruned: false }];
      }),
    );
  }

  ensure(spec: NodeSpec): Promise<void> {
    return this.queue.run(spec.id, async () => {
      if (this.closed) throw new Error('the kubernetes driver is closed');
      if (this.ensured.has(spec.id)) return;
      if (!catalogueImage(this.settings.catalogue, spec.image)) {
        throw new ImageUnavailableError(`the kubernetes driver's catalogue has no ${spec.image} image`);
      }
      if (spec.dev) throw new ImageUnavailableError(`node ${spec.id} was created on a dev chain, which the kubernetes driver does not run`);
      const api = await this.kubeApi();
      const build = (secretData: Record<string, string>) =>
        nodeManifests(
          { id: objectName(spec.id), image: spec.image, large: spec.large, txindex: spec.txindex, userId: spec.userId, secretData },
          this.settings.catalogue,
          this.settings,
        );
      let manifests: NodeManifests;
      if (IMAGES[spec.image].family === 'avalanche') {
        manifests = await this.ensureStakingSecret(api, spec, build);
      } else {
        manifests = build(this.secretData(spec));
        await this.apply(api.secrets, manifests.secret, spec.id, (existing, secret) => ({
          ...existing,
          metadata: owned(existing, secret),
          stringData: secret.stringData,
        }));
      }
      await this.apply(api.services, manifests.service, spec.id, (existing, service) => ({
        ...existing,
        metadata: owned(existing, service),
        // Keeps what the cluster filled in (clusterIP, ...): only the fields the driver sets change.
        spec: { ...existing.spec, type: service.spec?.type, selector: service.spec?.selector, ports: service.spec?.ports },
      }));
      await this.apply(api.networkPolicies, manifests.networkPolicy, spec.id, (existing, policy) => ({
        ...existing,
        metadata: owned(existing, policy),
        spec: policy.spec,
      }));
      // Last: a StatefulSet that exists means its Secret and Service were made before it.
      // A stopped node's StatefulSet (zero replicas) is scaled up again even when nothing else changed.
      const sameReplicas = (existing: V1StatefulSet) => existing.spec?.replicas === manifests.statefulSet.spec?.replicas;
      await this.apply(
        api.statefulSets,
        manifests.statefulSet,
        spec.id,
        (existing, statefulSet) => ({
          ...existing,
          metadata: owned(existing, statefulSet),
          // The selector, service name and volume claim templates cannot change; the pod template can (a new version rolls out).
          spec: {
            ...(existing.spec ?? { selector: {}, template: {} }),
            replicas: statefulSet.spec?.replicas,
            persistentVolumeClaimRetentionPolicy: statefulSet.spec?.persistentVolumeClaimRetentionPolicy,
            template: statefulSet.spec?.template ?? {},
          },
        }),
        sameReplicas,
      );
      this.ensured.add(spec.id);
    });
  }

  async status(nodeId: string): Promise<NodeStatus> {
    if (!isObjectName(nodeId)) return { state: 'absent' };
    const api = await this.kubeApi();
    const pod = await this.findPod(api, nodeId);
    if (!pod) {
      let statefulSet: V1StatefulSet;
      try {
        statefulSet = await api.statefulSets.read(nodeId);
      } catch (error) {
        if (!isNotFound(error)) throw error;
        this.ensured.delete(nodeId); // deleted behind our back: the next ensure recreates it
        this.syncReadings.forget(nodeId);
        return { state: 'absent' };
      }
      // Scaled to zero and its pod gone: stopped, nothing runs for it.
      return { state: statefulSet.spec?.replicas === 0 ? 'absent' : 'starting' };
    }
    const port = podRpcPort(pod);
    if (port === undefined) return { state: 'starting' };
    const status = podNodeStatus(pod, `http://${nodeId}.${this.namespace}.svc:${port}`, {
      now: this.settings.clock(),
      crashRestarts: this.settings.crashRestarts,
      unschedulableMs: this.settings.unschedulableSeconds * 1000,
    });
    if (status.state !== 'running') return status;
    const sync = await this.readSync(nodeId, pod, port);
    return sync ? { ...status, sync } : status;
  }

  /**
   * How far the node in `pod` is with its network, asked at the pod itself (the Service would pick
   * any ready pod; this is the one whose readiness was just read), as the node-proxy calls it.
   */
  private readSync(nodeId: string, pod: V1Pod, port: number): Promise<SyncStatus | undefined> {
    const image = pod.metadata?.labels?.[IMAGE_LABEL];
    const address = pod.status?.podIP;
    if (image === undefined || !isImageId(image) || !address || !pod.metadata?.uid) return Promise.resolve(undefined);
    const host = address.includes(':') ? `[${address}]` : address;
    return this.syncReadings.read(nodeId, pod.metadata.uid, IMAGES[image].family, {
      url: `http://${host}:${port}`,
      authorization: nodeRpcAuthorization(this.settings.secretKey, nodeId),
    });
  }

  /**
   * Nothing to do: the node runs in the cluster, not in this process, so it keeps running (and
   * keeps its data) while its lease passes to another instance, which reaches the same objects.
   * Stopping it here would take every node down at each rolling update of the nodes service.
   */
  release(nodeId: string): Promise<void> {
    this.ensured.delete(nodeId);
    this.syncReadings.forget(nodeId);
    return Promise.resolve();
  }

  /**
   * Scales the node's StatefulSet to zero: its pod goes (a failed one stops crash-looping or
   * waiting for an image or a machine), its volume and other objects stay. The next `ensure`
   * scales it back to one, with the spec's resource class, on the same volume.
   */
  stop(nodeId: string): Promise<void> {
    return this.queue.run(nodeId, async () => {
      this.ensured.delete(nodeId);
      this.syncReadings.forget(nodeId);
      if (!isObjectName(nodeId)) return;
      const api = await this.kubeApi();
      let statefulSet: V1StatefulSet;
      try {
        statefulSet = await api.statefulSets.read(nodeId);
      } catch (error) {
        if (isNotFound(error)) return;
        throw error;
      }
      if (!statefulSet.spec || statefulSet.spec.replicas === 0) return;
      await api.statefulSets.replace(nodeId, { ...statefulSet, spec: { ...statefulSet.spec, replicas: 0 } });
    });
  }

  destroy(nodeId: string): Promise<void> {
    return this.queue.run(nodeId, async () => {
      this.ensured.delete(nodeId);
      this.syncReadings.forget(nodeId);
      if (!isObjectName(nodeId)) return;
      const api = await this.kubeApi();
      for (const calls of [api.statefulSets, api.services, api.networkPolicies, api.secrets]) {
        await deleteIfPresent(calls, nodeId);
      }
      for (const claim of await api.persistentVolumeClaims.list(labelSelector(selectorLabels(nodeId)))) {
        await this.deleteVolumeWhenDue(api, claim);
      }
    });
  }

  async logs(nodeId: string, lines: number): Promise<string[]> {
    if (!isObjectName(nodeId) || lines <= 0) return [];
    const api = await this.kubeApi();
    const pod = await this.findPod(api, nodeId);
    const podName = pod?.metadata?.name;
    if (!podName) return [];
    let text: string;
    try {
      text = await api.podLog(podName, NODE_CONTAINER, lines);
    } catch (error) {
      // 400: the container has not started yet; 404: the pod went meanwhile. Either way there is no log.
      if (error instanceof KubernetesApiError && (error.status === 400 || error.status === 404)) return [];
      throw error;
    }
    const all = text.split('\n');
    if (all.at(-1) === '') all.pop();
    return all.slice(-lines);
  }

  /** Stops the volume sweeper and aborts calls under way; the nodes keep running in the cluster. */
  close(): Promise<void> {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    this.closing.abort();
    this.ensured.clear();
    return Promise.resolve();
  }

  private kubeApi(): Promise<KubeApi> {
    if (this.closed) return Promise.reject(new Error('the kubernetes driver is closed'));
    this.api ??= loadKubernetesClient().then((client) =>
      openKubeApi({
        client,
        namespace: this.namespace,
        kubeconfigFile: this.settings.kubeconfigFile,
        requestTimeoutMs: this.settings.requestTimeoutMs,
        signal: this.closing.signal,
      }),
    );
    // A failure (no kubeconfig yet) is not kept: the next call tries again.
    this.api.catch(() => (this.api = undefined));
    return this.api;
  }

  /** The Secret of a bitcoin-family or ethereum node: derived from the node id, so the same from any instance. */
  private secretData(spec: NodeSpec): Record<string, string> {
    const { secretKey } = this.settings;
    return IMAGES[spec.image].family === 'ethereum' ? { 'jwt.hex': engineJwtSecret(secretKey, spec.id) } : { rpcauth: nodeRpcAuth(secretKey, spec.id) };
  }

  /**
   * A validator's Secret holds its staking TLS pair, which only the staking service has: it is
   * asked for only when the Secret does not exist yet, and an existing one is never rewritten.
   */
  private async ensureStakingSecret(api: KubeApi, spec: NodeSpec, build: (secretData: Record<string, string>) => NodeManifests): Promise<NodeManifests> {
    const existing = await readIfPresent(api.secrets, spec.id);
    if (existing) {
      assertOwned('Secret', existing, spec.id);
      return build({});
    }
    if (!spec.stakingTls) throw new Error(`validator node ${spec.id} has no staking TLS pair`);
    const { certificatePem, keyPem } = await spec.stakingTls();
    const manifests = build({ 'staker.crt': certificatePem, 'staker.key': keyPem });
    try {
      await api.secrets.create(manifests.secret);
      this.logger.info('created Secret', { nodeId: spec.id });
    } catch (error) {
      if (!isConflict(error)) throw error;
      assertOwned('Secret', await api.secrets.read(spec.id), spec.id); // another instance was quicker
    }
    return manifests;
  }

  /** Creates the object; when it exists, adopts it, and brings it up to date when it differs from what would be created. */
  private async apply<T extends KubeObject>(
    calls: ObjectCalls<T>,
    desired: T,
    nodeId: string,
    updated: (existing: T, desired: T) => T,
    alsoUpToDate: (existing: T) => boolean = () => true,
  ): Promise<void> {
    try {
      await calls.create(desired);
      this.logger.info(`created ${calls.kind}`, { nodeId });
      return;
    } catch (error) {
      if (!isConflict(error)) throw error;
    }
    const existing = await calls.read(nodeId);
    assertOwned(calls.kind, existing, nodeId);
    if (hashOf(existing) === hashOf(desired) && alsoUpToDate(existing)) {
      this.logger.info(`adopted ${calls.kind}`, { nodeId });
      return;
    }
    await calls.replace(nodeId, updated(existing, desired));
    this.logger.info(`updated ${calls.kind}`, { nodeId });
  }

  private async findPod(api: KubeApi, nodeId: string): Promise<V1Pod | undefined> {
    const pods = await api.listPods(labelSelector(selectorLabels(nodeId)));
    return pods.find((pod) => pod.metadata?.name === `${nodeId}-0`) ?? pods[0];
  }

  /** Deletes a destroyed node's volume, or marks when it may be once KUBE_PVC_DELETE_GRACE_SECONDS have passed. */
  private async deleteVolumeWhenDue(api: KubeApi, claim: V1PersistentVolumeClaim): Promise<void> {
    const name = claim.metadata?.name;
    if (!name) return;
    const grace = this.settings.pvcDeleteGraceSeconds;
    const due = claim.metadata?.labels?.[DELETE_AFTER_LABEL];
    const now = this.settings.clock();
    if (grace === 0 || (due !== undefined && Number(due) * 1000 <= now)) {
      await deleteIfPresent(api.persistentVolumeClaims, name);
      this.logger.info('deleted the volume of a destroyed node', { volume: name });
    } else if (due === undefined) {
      const deleteAfter = String(Math.ceil(now / 1000) + grace);
      await api.persistentVolumeClaims.patchLabels(name, { [DELETE_AFTER_LABEL]: deleteAfter });
      this.logger.info('the volume of a destroyed node is kept for its grace period', { volume: name, deleteAfter });
    }
  }

  /** Deletes every volume whose grace has passed, whichever instance destroyed its node. */
  private async sweepVolumes(): Promise<void> {
    if (this.sweeping || this.closed) return;
    this.sweeping = true;
    try {
      const api = await this.kubeApi();
      const claims = await api.persistentVolumeClaims.list(`${MANAGED_BY_LABEL}=${MANAGED_BY},${DELETE_AFTER_LABEL}`);
      for (const claim of claims) await this.deleteVolumeWhenDue(api, claim);
    } catch (error) {
      if (!this.closed) this.logger.warn('could not delete the volumes of destroyed nodes', { error });
    } finally {
      this.sweeping = false;
    }
  }
}

export function createKubernetesDriver(options: KubernetesDriverOptions): KubernetesDriver {
  return new KubernetesDriver(options);
}

/** An object with the node's name that this service did not make is not touched. */
function assertOwned(kind: string, object: KubeObject, nodeId: string): void {
  const labels = object.metadata?.labels ?? {};
  if (labels[MANAGED_BY_LABEL] !== MANAGED_BY || labels[NODE_ID_LABEL] !== nodeId) {
    throw new Error(`a ${kind} named ${nodeId} exists that cloud-nodes did not create for this node; not touching it`);
  }
}

/** The existing object's metadata (its resourceVersion, uid, ...) with the driver's labels and annotations. */
function owned(existing: KubeObject, desired: KubeObject): V1ObjectMeta {
  return {
    ...existing.metadata,
    name: desired.metadata?.name ?? existing.metadata?.name ?? '',
    labels: { ...existing.metadata?.labels, ...desired.metadata?.labels },
    annotations: { ...existing.metadata?.annotations, ...desired.metadata?.annotations },
  };
}

function hashOf(object: KubeObject): string | undefined {
  return object.metadata?.annotations?.[MANIFEST_HASH_ANNOTATION];
}

async function readIfPresent<T>(calls: Pick<ObjectCalls<T>, 'read'>, name: string): Promise<T | undefined> {
  try {
    return await calls.read(name);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

async function deleteIfPresent(calls: Pick<ObjectCalls<unknown>, 'delete'>, name: string): Promise<void> {
  try {
    await calls.delete(name);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}
