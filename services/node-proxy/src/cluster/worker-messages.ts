import type { MetricObjectWithValues, MetricValue } from 'prom-client';

/** What the primary and its proxy workers tell each other over the cluster's IPC channel. */

/** A worker listens on every chain port with its routes and revocations loaded. */
export interface WorkerListening {
  type: 'node-proxy:listening';
}

/** The primary asks a listening worker whether it is ready, or for its metrics (as prom-client's JSON). */
export interface WorkerQuery {
  type: 'node-proxy:query';
  id: number;
  what: 'readiness' | 'metrics';
}

export type WorkerMetrics = MetricObjectWithValues<MetricValue<string>>[][];

export interface WorkerAnswer {
  type: 'node-proxy:answer';
  id: number;
  /** Why it is not ready, or could not collect its metrics. */
  error?: string;
  metrics?: WorkerMetrics;
}

export function isMessage<T extends { type: string }>(message: unknown, type: T['type']): message is T {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}
