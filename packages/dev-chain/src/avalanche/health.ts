import { cChainHeight } from './c-chain';
import type { JsonRpcApi } from './json-rpc';
import type { AvalancheNode } from './node';
import { gorillaUnknownMethod } from './node';

export type HealthReportKind = 'health' | 'readiness' | 'liveness';

export interface HealthReport {
  checks: Record<string, Record<string, unknown>>;
  healthy: boolean;
}

function passed(timestamp: string, message?: unknown): Record<string, unknown> {
  return { ...(message !== undefined && { message }), timestamp, duration: 0, contiguousFailures: 0, timeOfFirstFailure: null };
}

/**
 * avalanchego's health reports, always healthy: the node is bootstrapped from the start. `health`
 * has the checks an operator looks at, `readiness` only `bootstrapped`, `liveness` none.
 */
export function healthReport(node: AvalancheNode, kind: HealthReportKind): HealthReport {
  const timestamp = new Date(node.nowSeconds() * 1000).toISOString();
  if (kind === 'liveness') return { checks: {}, healthy: true };
  const bootstrapped = passed(timestamp, []);
  if (kind === 'readiness') return { checks: { bootstrapped }, healthy: true };
  const consensus = (lastAcceptedHeight: number) => ({ engine: { consensus: { lastAcceptedHeight, processingBlocks: 0 } } });
  return {
    checks: {
      C: passed(timestamp, consensus(cChainHeight(node))),
      P: passed(timestamp, consensus(node.registry.height)),
      bootstrapped,
      database: passed(timestamp),
      network: passed(timestamp, { connectedPeers: 0 }),
    },
    healthy: true,
  };
}

/** `POST /ext/health`: the same reports over JSON-RPC. */
export function healthApi(node: AvalancheNode): JsonRpcApi {
  return {
    methods: {
      'health.health': () => healthReport(node, 'health'),
      'health.readiness': () => healthReport(node, 'readiness'),
      'health.liveness': () => healthReport(node, 'liveness'),
    },
    unknownMethod: gorillaUnknownMethod,
  };
}
