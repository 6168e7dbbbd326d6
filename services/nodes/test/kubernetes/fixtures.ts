import path from 'node:path';
import { IMAGE_IDS, IMAGES, type ImageId } from '@cloud/chains';
import type { KubernetesClientModule, ManifestSettings, NodeManifestInput, NodeManifests } from '../../src/drivers/kubernetes';
import { engineJwtSecret, nodeRpcAuth } from '../../src/drivers/kubernetes/credentials';

/** What the golden files and the driver tests are made with. */
export const NAMESPACE = 'cloud-nodes';
export const SECRET_KEY = Buffer.alloc(32, 7);
export const USER_ID = 'user-5d0c3a52-8f3e-4b7a-9a41-0c6f2b1e9d77';

export const SETTINGS: ManifestSettings = {
  namespace: NAMESPACE,
  proxyPodSelector: { 'app.kubernetes.io/name': 'node-proxy' },
  stakingPodSelector: { 'app.kubernetes.io/name': 'staking' },
  streamsPodSelector: { 'app.kubernetes.io/name': 'streams' },
  nodesPodSelector: { 'app.kubernetes.io/name': 'nodes' },
  rpcAllowCidrs: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'],
};

/** Not a real pair: the driver only copies it into the Secret. */
export const STAKING_TLS = {
  certificatePem: '-----BEGIN CERTIFICATE-----\nTUlJQmZha2VzdGFraW5nY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n',
  keyPem: '-----BEGIN PRIVATE KEY-----\nTUlJQmZha2VzdGFraW5na2V5\n-----END PRIVATE KEY-----\n',
};

export const SIZES = ['standard', 'large'] as const;
export type Size = (typeof SIZES)[number];

/** A fixed node id per image, so the golden files do not change from run to run. */
export function nodeIdOf(image: ImageId): string {
  return `node-00000000-0000-4000-8000-${String(IMAGE_IDS.indexOf(image)).padStart(12, '0')}`;
}

/** The Secret entries the driver makes for the node (a validator's: the fake staking pair). */
export function secretDataOf(image: ImageId, nodeId: string): Record<string, string> {
  switch (IMAGES[image].family) {
    case 'avalanche':
      return { 'staker.crt': STAKING_TLS.certificatePem, 'staker.key': STAKING_TLS.keyPem };
    case 'ethereum':
      return { 'jwt.hex': engineJwtSecret(SECRET_KEY, nodeId) };
    default:
      return { rpcauth: nodeRpcAuth(SECRET_KEY, nodeId) };
  }
}

export function goldenInput(image: ImageId, size: Size): NodeManifestInput {
  const id = nodeIdOf(image);
  return { id, image, large: size === 'large', userId: USER_ID, secretData: secretDataOf(image, id) };
}

export const GOLDEN_DIR = path.join(__dirname, 'golden');

export function goldenFile(image: ImageId, size: Size): string {
  return path.join(GOLDEN_DIR, `${image}-${size}.yaml`);
}

/** The objects in the order the driver creates them, as YAML documents the client would send. */
export function toYaml(k8s: KubernetesClientModule, manifests: NodeManifests): string {
  return [manifests.secret, manifests.service, manifests.networkPolicy, manifests.statefulSet]
    .map((object) => k8s.dumpYaml(object, { lineWidth: -1, noRefs: true }))
    .join('---\n');
}
