import type { Logger } from '@cloud/logging';
import type { NodeCatalogue } from './catalogue';
import type { ManifestSettings } from './manifests';

export interface KubernetesDriverOptions extends ManifestSettings {
  /** Derives each node's RPC password (`nodeRpcPassword`); the node-proxy holds the same key. */
  secretKey: Buffer;
  logger: Logger;
  /** A kubeconfig file; unset: the in-cluster service account or the default kubeconfig (KUBECONFIG, ~/.kube/config). */
  kubeconfigFile?: string | undefined;
  /** What the driver runs; default: `node-images.json`. */
  catalogue?: NodeCatalogue;
  /** Destroyed nodes' volumes are deleted this long after the rest (0: at once). */
  pvcDeleteGraceSeconds?: number;
  /** Every API call gives up after this long. */
  requestTimeoutMs?: number;
  /** A node's sync-status RPC at its pod gives up after this long (default: 2 s, or requestTimeoutMs if shorter). */
  syncReadTimeoutMs?: number;
  /** A container in CrashLoopBackOff after this many restarts makes the node `failed`. */
  crashRestarts?: number;
  /** A pod the scheduler cannot place for this long makes the node `failed`. */
  unschedulableSeconds?: number;
  /** How often volumes past their grace are looked for (only with a grace). */
  sweepIntervalMs?: number;
  clock?: () => number;
}

export type KubernetesSettings = Required<Omit<KubernetesDriverOptions, 'kubeconfigFile' | 'storageClass' | 'platformNamespace'>> &
  Pick<KubernetesDriverOptions, 'kubeconfigFile' | 'storageClass' | 'platformNamespace'>;
