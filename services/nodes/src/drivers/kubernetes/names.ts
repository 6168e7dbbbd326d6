import type { ImageId } from '@cloud/chains';

export type Labels = Record<string, string>;

export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
export const MANAGED_BY = 'cloud-nodes';
export const NODE_ID_LABEL = 'cloud.nodes/node-id';
export const USER_ID_LABEL = 'cloud.nodes/user-id';
export const IMAGE_LABEL = 'cloud.nodes/image';
/** On a PVC of a destroyed node: when (Unix seconds) it may be deleted. */
export const DELETE_AFTER_LABEL = 'cloud.nodes/delete-after';
/** A digest of what the driver would create, so adopting an object can tell whether it needs updating. */
export const MANIFEST_HASH_ANNOTATION = 'cloud.nodes/manifest-hash';
/** On the pod template: a digest of the node's Secret, so a changed Secret restarts the pod. */
export const SECRET_HASH_ANNOTATION = 'cloud.nodes/secret-hash';

/** The name of the node software's container, whose log `logs` reads. */
export const NODE_CONTAINER = 'node';
/** The name of the RPC port, in the pod and on the Service. */
export const RPC_PORT_NAME = 'rpc';
/** The name of the volume claim template; its PVC is `data-<node id>-0`. */
export const DATA_VOLUME = 'data';

// Every object is named after the node. A StatefulSet's name must leave room in 63 characters for
// the controller's `-<revision hash>` label value (11 characters), and a Service's must start with a letter.
const OBJECT_NAME = /^[a-z]([-a-z0-9]{0,50}[a-z0-9])?$/;
// A label value: 63 characters at most, alphanumeric at both ends, `-_.` inside.
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/;

/** The name of every object of a node (StatefulSet, Service, Secret, NetworkPolicy): its id. */
export function objectName(nodeId: string): string {
  if (!OBJECT_NAME.test(nodeId)) throw new Error(`node id ${JSON.stringify(nodeId)} cannot name Kubernetes objects`);
  return nodeId;
}

export function isObjectName(nodeId: string): boolean {
  return OBJECT_NAME.test(nodeId);
}

/** What selects a node's pod (and so its Service and NetworkPolicy): fixed for the StatefulSet's life. */
export function selectorLabels(nodeId: string): Labels {
  return { [MANAGED_BY_LABEL]: MANAGED_BY, [NODE_ID_LABEL]: nodeId };
}

/** The labels on every object of a node; the owner's only when known and a valid label value. */
export function nodeLabels(node: { id: string; image: ImageId; userId?: string | undefined }): Labels {
  return {
    ...selectorLabels(node.id),
    ...(node.userId !== undefined && LABEL_VALUE.test(node.userId) ? { [USER_ID_LABEL]: node.userId } : {}),
    [IMAGE_LABEL]: node.image,
  };
}

/** `k=v,k2=v2` → `{k: v, k2: v2}`, as KUBE_PROXY_POD_SELECTOR is written. */
export function parseLabelSelector(selector: string): Labels {
  const labels: Labels = {};
  for (const part of selector.split(',')) {
    const [key, value, ...rest] = part.trim().split('=');
    if (!key || value === undefined || rest.length > 0 || !LABEL_VALUE.test(value)) {
      throw new Error(`not a label selector of the form key=value[,key=value]: ${JSON.stringify(selector)}`);
    }
    labels[key] = value;
  }
  return labels;
}

/** `{k: v}` → `k=v`, for a list call's labelSelector. */
export function labelSelector(labels: Labels): string {
  return Object.entries(labels)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}
