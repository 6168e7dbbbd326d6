import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node' with { 'resolution-mode': 'import' };
import type { NodeStatus } from '../../domain/node-driver';
import { RPC_PORT_NAME } from './names';

export interface PodStatusPolicy {
  now: number;
  /** A container in CrashLoopBackOff after this many restarts has failed. */
  crashRestarts: number;
  /** A pod the scheduler cannot place for this long has failed. */
  unschedulableMs: number;
}

// The image cannot be had: retrying (kubelet does, with back-off) does not help without an operator.
const IMAGE_FAILURES = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull']);

/**
 * Where a node stands, read from its pod: `running` once it is Ready (its RPC answers: the
 * readiness probe), `failed` when Kubernetes cannot pull its image, when its software keeps
 * crashing, or when no machine can take it for long; otherwise `starting`.
 */
export function podNodeStatus(pod: V1Pod, endpoint: string, policy: PodStatusPolicy): NodeStatus {
  if (pod.metadata?.deletionTimestamp) return { state: 'starting' };
  const statuses: V1ContainerStatus[] = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  for (const container of statuses) {
    const waiting = container.state?.waiting;
    if (waiting?.reason && IMAGE_FAILURES.has(waiting.reason)) {
      return { state: 'failed', reason: `the image ${container.image} cannot be pulled (${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''})` };
    }
    if (waiting?.reason === 'CrashLoopBackOff' && container.restartCount >= policy.crashRestarts) {
      const last = container.lastState?.terminated;
      const exit = last ? `; last exit code ${last.exitCode}${last.reason ? ` (${last.reason})` : ''}` : '';
      return { state: 'failed', reason: `the node software (${container.name}) keeps exiting: ${container.restartCount} restarts${exit}` };
    }
  }
  const conditions = pod.status?.conditions ?? [];
  const scheduled = conditions.find((condition) => condition.type === 'PodScheduled');
  if (scheduled?.status === 'False' && scheduled.reason === 'Unschedulable') {
    const since = scheduled.lastTransitionTime ? new Date(scheduled.lastTransitionTime).getTime() : policy.now;
    if (policy.now - since >= policy.unschedulableMs) {
      return { state: 'failed', reason: `no machine in the cluster can run the node${scheduled.message ? `: ${scheduled.message}` : ''}` };
    }
  }
  const ready = conditions.find((condition) => condition.type === 'Ready');
  return ready?.status === 'True' ? { state: 'running', endpoint: { url: endpoint } } : { state: 'starting' };
}

/** The node's RPC port, as its pod declares it (the catalogue may have changed since). */
export function podRpcPort(pod: V1Pod): number | undefined {
  for (const container of pod.spec?.containers ?? []) {
    const port = container.ports?.find((candidate) => candidate.name === RPC_PORT_NAME);
    if (port) return port.containerPort;
  }
  return undefined;
}
