import { createHash } from 'node:crypto';
import type {
  V1Container,
  V1ContainerPort,
  V1NetworkPolicy,
  V1NetworkPolicyPeer,
  V1Probe,
  V1Secret,
  V1Service,
  V1StatefulSet,
} from '@kubernetes/client-node' with { 'resolution-mode': 'import' };
import { IMAGES, type ImageId } from '@cloud/chains';
import { catalogueSoftware, type CatalogueContainer, type CatalogueImage, type NodeCatalogue } from './catalogue';
import {
  DATA_VOLUME,
  MANIFEST_HASH_ANNOTATION,
  NODE_CONTAINER,
  RPC_PORT_NAME,
  SECRET_HASH_ANNOTATION,
  nodeLabels,
  objectName,
  selectorLabels,
  type Labels,
} from './names';

/** How the driver's objects fit the cluster: KUBE_* settings. */
export interface ManifestSettings {
  namespace: string;
  /** The PVC's storage class; unset: the cluster's default. */
  storageClass?: string | undefined;
  /** Pods allowed to reach every node's RPC port (the node-proxy). */
  proxyPodSelector: Labels;
  /** Pods also allowed to reach a validator node's RPC port (the staking service reads the P-chain through it). */
  stakingPodSelector: Labels;
  /** Pods also allowed to reach an Ethereum- or Bitcoin-family node's RPC port (the streams service follows their chains). */
  streamsPodSelector: Labels;
  /** Pods allowed to read every node's sync status at its RPC port (the nodes service). */
  nodesPodSelector: Labels;
  /** The namespace of those pods, when not the nodes' own. */
  platformNamespace?: string | undefined;
  /** Addresses bitcoind-family nodes accept RPC from (`-rpcallowip`): the pod network. */
  rpcAllowCidrs: string[];
}

/** What the driver knows about a node when it builds its objects. */
export interface NodeManifestInput {
  id: string;
  image: ImageId;
  large: boolean;
  /** Keep a transaction index (`-txindex`, Bitcoin family); absent: no index. */
  txindex?: boolean;
  /** The owner, for the user-id label; absent when the caller does not say. */
  userId?: string | undefined;
  /** The Secret's entries: `rpcauth`, `jwt.hex`, or a validator's `staker.crt`/`staker.key`. */
  secretData: Record<string, string>;
}

export interface NodeManifests {
  secret: V1Secret;
  service: V1Service;
  networkPolicy: V1NetworkPolicy;
  statefulSet: V1StatefulSet;
}

// Mount points inside the pod; the catalogue's arguments name them through {{dataDir}} and {{secretsDir}}.
const DATA_DIR = '/data';
const SECRETS_DIR = '/secrets';
// Any non-root id: the images' own users differ, and fsGroup makes the volume theirs either way.
const RUN_AS = 10001;
// bitcoind and geth flush their caches on SIGTERM; a big -dbcache takes minutes.
const TERMINATION_GRACE_SECONDS = 300;

/** Every object of one node, from the node, the catalogue and the settings: a pure function, so its output is golden-tested. */
export function nodeManifests(node: NodeManifestInput, catalogue: NodeCatalogue, settings: ManifestSettings): NodeManifests {
  const entry = catalogue.images[node.image];
  if (!entry) throw new Error(`the catalogue has no ${node.image} image`);
  const name = objectName(node.id);
  const labels = nodeLabels(node);
  const metadata = { name, namespace: settings.namespace, labels };
  const secret = withHash<V1Secret>({ apiVersion: 'v1', kind: 'Secret', metadata: { ...metadata }, type: 'Opaque', stringData: node.secretData });
  return {
    secret,
    service: withHash<V1Service>({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { ...metadata },
      spec: {
        type: 'ClusterIP',
        selector: selectorLabels(node.id),
        ports: [{ name: RPC_PORT_NAME, port: entry.rpcPort, targetPort: RPC_PORT_NAME, protocol: 'TCP' }],
      },
    }),
    networkPolicy: withHash<V1NetworkPolicy>({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { ...metadata },
      spec: {
        podSelector: { matchLabels: selectorLabels(node.id) },
        policyTypes: ['Ingress'],
        ingress: [
          // `_from` is the client's name for `from` (a reserved word); it sends `from`.
          { _from: rpcClients(node.image, settings), ports: [{ protocol: 'TCP', port: entry.rpcPort }] },
          // Peers anywhere; no `from` is every source.
          { ports: entry.containers.flatMap((container) => container.p2pPorts.map(({ port, protocol }) => ({ protocol, port }))) },
        ],
      },
    }),
    statefulSet: withHash<V1StatefulSet>({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { ...metadata },
      spec: {
        replicas: 1,
        serviceName: name,
        selector: { matchLabels: selectorLabels(node.id) },
        // The driver deletes the volume itself, after KUBE_PVC_DELETE_GRACE_SECONDS.
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
        template: {
          // A changed Secret (a new NODE_RPC_KEY) restarts the pod. Not for a validator: its Secret is
          // written once, and adopting it later never reads the staking pair again.
          metadata: IMAGES[node.image].family === 'avalanche' ? { labels } : { labels, annotations: { [SECRET_HASH_ANNOTATION]: manifestHash(secret) } },
          spec: {
            automountServiceAccountToken: false,
            // Hundreds of node Services in one namespace would otherwise each add variables to every pod.
            enableServiceLinks: false,
            terminationGracePeriodSeconds: TERMINATION_GRACE_SECONDS,
            securityContext: {
              runAsNonRoot: true,
              runAsUser: RUN_AS,
              runAsGroup: RUN_AS,
              fsGroup: RUN_AS,
              // Not a recursive chown of a terabyte at every start.
              fsGroupChangePolicy: 'OnRootMismatch',
              seccompProfile: { type: 'RuntimeDefault' },
            },
            containers: entry.containers.map((container, index) => nodeContainer(container, index === 0, node, catalogue, entry, settings)),
            volumes: [
              { name: 'secrets', secret: { secretName: name, defaultMode: 0o440 } },
              { name: 'tmp', emptyDir: {} },
            ],
          },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: DATA_VOLUME, labels },
            spec: {
              accessModes: ['ReadWriteOnce'],
              resources: { requests: { storage: entry.storage } },
              ...(settings.storageClass ? { storageClassName: settings.storageClass } : {}),
            },
          },
        ],
      },
    }),
  };
}

/**
 * Who may call a node's RPC: the node-proxy, the nodes service (it reads how far the node is with
 * its network: `getblockchaininfo`, `eth_syncing`, `info.isBootstrapped`), and for a validator's
 * node the staking service too, and for a node streams can follow (Ethereum and Bitcoin families)
 * the streams service.
 */
function rpcClients(image: ImageId, settings: ManifestSettings): V1NetworkPolicyPeer[] {
  const peer = (matchLabels: Labels): V1NetworkPolicyPeer => ({
    podSelector: { matchLabels },
    // Both selectors in one peer: those pods in that namespace (Kubernetes labels every namespace with its name).
    ...(settings.platformNamespace ? { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': settings.platformNamespace } } } : {}),
  });
  const validator = IMAGES[image].purpose === 'validator';
  const followed = IMAGES[image].family === 'ethereum' || IMAGES[image].family === 'bitcoin';
  return [
    peer(settings.proxyPodSelector),
    peer(settings.nodesPodSelector),
    ...(validator ? [peer(settings.stakingPodSelector)] : []),
    ...(followed ? [peer(settings.streamsPodSelector)] : []),
  ];
}

function nodeContainer(
  container: CatalogueContainer,
  main: boolean,
  node: NodeManifestInput,
  catalogue: NodeCatalogue,
  entry: CatalogueImage,
  settings: ManifestSettings,
): V1Container {
  const software = catalogueSoftware(catalogue, container);
  const size = node.large ? container.resources.large : container.resources.standard;
  const txindex = main && node.txindex === true && IMAGES[node.image].family === 'bitcoin' ? ['-txindex'] : [];
  const args = expandArgs([...container.args, ...size.args, ...txindex], entry, settings);
  const ports: V1ContainerPort[] = [
    ...(main ? [{ name: RPC_PORT_NAME, containerPort: entry.rpcPort, protocol: 'TCP' }] : []),
    ...container.p2pPorts.map(({ name, port, protocol }) => ({ name, containerPort: port, protocol })),
  ];
  return {
    name: main ? NODE_CONTAINER : container.name,
    image: software.image,
    command: software.command,
    args,
    // Kubernetes expands $(RPCAUTH) in args from this variable, so the value stays in the Secret.
    ...(args.some((arg) => arg.includes('$(RPCAUTH)')) ? { env: [{ name: 'RPCAUTH', valueFrom: { secretKeyRef: { name: node.id, key: 'rpcauth' } } }] } : {}),
    ports,
    resources: { requests: { ...size.requests }, limits: { ...size.limits } },
    volumeMounts: [
      { name: DATA_VOLUME, mountPath: DATA_DIR },
      { name: 'secrets', mountPath: SECRETS_DIR, readOnly: true },
      { name: 'tmp', mountPath: '/tmp' },
    ],
    securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
    ...(main ? probes(container, entry, settings) : {}),
  };
}

/**
 * Liveness and startup probe TCP: bitcoind answers RPC only with credentials, and the port is
 * open from the first seconds even while it loads its block index, so a TCP connect tells a hung
 * process from a busy one without a password in the pod spec. Readiness is the catalogue's: an
 * authenticated `*-cli` call (it reads the daemon's cookie file in the data directory) or an HTTP
 * GET; the Service routes only to a ready pod, and `status` reports `running` from it.
 */
function probes(
  container: CatalogueContainer,
  entry: CatalogueImage,
  settings: ManifestSettings,
): Pick<V1Container, 'startupProbe' | 'livenessProbe' | 'readinessProbe'> {
  const tcp = { tcpSocket: { port: RPC_PORT_NAME } };
  const readiness: V1Probe | undefined = container.readiness
    ? 'exec' in container.readiness
      ? { exec: { command: expandArgs(container.readiness.exec, entry, settings) } }
      : { httpGet: { path: container.readiness.httpGet.path, port: RPC_PORT_NAME } }
    : undefined;
  return {
    // Up to an hour to open the port (a database recovering after a crash).
    startupProbe: { ...tcp, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 360 },
    livenessProbe: { ...tcp, periodSeconds: 30, timeoutSeconds: 5, failureThreshold: 4 },
    ...(readiness ? { readinessProbe: { ...readiness, periodSeconds: 10, timeoutSeconds: 8, failureThreshold: 3 } } : {}),
  };
}

/** Fills in the catalogue's placeholders; an argument naming {{rpcAllowCidr}} is repeated for each allowed range. */
export function expandArgs(args: string[], entry: CatalogueImage, settings: ManifestSettings): string[] {
  const values: Record<string, string> = { dataDir: DATA_DIR, secretsDir: SECRETS_DIR, rpcPort: String(entry.rpcPort) };
  return args.flatMap((arg) => {
    const filled = arg.replace(/\{\{(\w+)\}\}/g, (placeholder, key: string) => {
      if (key === 'rpcAllowCidr') return placeholder;
      const value = values[key];
      if (value === undefined) throw new Error(`unknown placeholder ${placeholder} in the node catalogue`);
      return value;
    });
    return filled.includes('{{rpcAllowCidr}}') ? settings.rpcAllowCidrs.map((cidr) => filled.replaceAll('{{rpcAllowCidr}}', cidr)) : [filled];
  });
}

/** A short digest of an object as the driver builds it (without its own hash annotation). */
export function manifestHash(object: object): string {
  return createHash('sha256').update(JSON.stringify(object)).digest('hex').slice(0, 16);
}

function withHash<T extends { metadata?: { annotations?: Record<string, string> } }>(object: T): T {
  return { ...object, metadata: { ...object.metadata, annotations: { [MANIFEST_HASH_ANNOTATION]: manifestHash(object) } } };
}
