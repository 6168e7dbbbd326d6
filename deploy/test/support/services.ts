import path from 'node:path';
import type { z } from 'zod';
import { accountsEnvironment } from '@cloud/accounts';
import { loadConfig } from '@cloud/config';
import { proxyEnvironment } from '@cloud/node-proxy';
import { nodesEnvironment } from '@cloud/nodes';
import { stakingEnvironment } from '@cloud/staking';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

export type ServiceName = 'accounts' | 'nodes' | 'staking' | 'node-proxy';

export interface ServiceFacts {
  /** The zod schema its config.ts validates the environment with. */
  environment: z.ZodObject;
  /** Has a schema of its own, migrated by `node dist/migrate.js`. */
  migrates: boolean;
  /** The variable naming the port of its /healthz, and that port's default. */
  healthPort: [variable: string, port: number];
  /** Ports its image exposes (runtime contract). */
  ports: number[];
  /** The variable naming where it listens: 0.0.0.0 in a container. */
  hostVariable: string;
}

/** Chain ports of the runtime contract and the management port, which users reach. */
export const PROXY_PUBLIC_PORTS = [8332, 18332, 9332, 8545, 9650, 8080];

export const SERVICES: Record<ServiceName, ServiceFacts> = {
  accounts: { environment: accountsEnvironment, migrates: true, healthPort: ['ACCOUNTS_PORT', 3001], ports: [3001], hostVariable: 'ACCOUNTS_HOST' },
  nodes: { environment: nodesEnvironment, migrates: true, healthPort: ['NODES_PORT', 3002], ports: [3002], hostVariable: 'NODES_HOST' },
  staking: { environment: stakingEnvironment, migrates: true, healthPort: ['STAKING_PORT', 3003], ports: [3003], hostVariable: 'STAKING_HOST' },
  'node-proxy': {
    environment: proxyEnvironment,
    migrates: false,
    healthPort: ['PROXY_ADMIN_PORT', 9464],
    ports: [...PROXY_PUBLIC_PORTS, 9464],
    hostVariable: 'PROXY_HOST',
  },
};

export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];

/**
 * Variables of the Kubernetes driver (issue 7, part 1), which adds them to the nodes service's
 * schema: accepted here before it lands, and validated by that schema once it has.
 */
const PENDING_VARIABLES: Partial<Record<ServiceName, string[]>> = { nodes: ['KUBE_NAMESPACE', 'KUBE_PLATFORM_NAMESPACE'] };

/** Variables in `env` that the service's configuration does not read: typos, or another service's. */
export function unknownVariables(service: ServiceName, env: Record<string, string>): string[] {
  const known = new Set([...Object.keys(SERVICES[service].environment.shape), ...(PENDING_VARIABLES[service] ?? [])]);
  return Object.keys(env).filter((name) => !known.has(name));
}

/** The service's own validation of `env`: throws ConfigError naming each bad variable. */
export function validateEnvironment(service: ServiceName, env: Record<string, string>): Record<string, unknown> {
  return loadConfig(SERVICES[service].environment, env) as Record<string, unknown>;
}
