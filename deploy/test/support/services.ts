import path from 'node:path';
import type { z } from 'zod';
import { accountsEnvironment } from '@cloud/accounts';
import { loadConfig } from '@cloud/config';
import { consoleEnvironment } from '@cloud/console';
import { proxyEnvironment } from '@cloud/node-proxy';
import { nodesEnvironment } from '@cloud/nodes';
import { stakingEnvironment } from '@cloud/staking';
import { streamsEnvironment } from '@cloud/streams';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** The platform's services: each behind the bus, most with a schema of their own. */
export type ServiceName = 'accounts' | 'nodes' | 'staking' | 'streams' | 'node-proxy';
/** Every image the platform ships: the services, and the web console (a page and its small server). */
export type ImageName = ServiceName | 'console';

export interface ImageFacts {
  /** Its workspace folder: the image's workdir is `/app/<dir>`. */
  dir: string;
  /** The zod schema its config.ts validates the environment with. */
  environment: z.ZodObject;
  /** The variable naming the port of its /healthz, and that port's default. */
  healthPort: [variable: string, port: number];
  /** Ports its image exposes (runtime contract). */
  ports: number[];
  /** The variable naming where it listens: 0.0.0.0 in a container. */
  hostVariable: string;
  /** The path a readiness probe asks: /readyz where it has one (dependencies checked), else /healthz. */
  readinessPath: '/readyz' | '/healthz';
}

export interface ServiceFacts extends ImageFacts {
  /** Has a schema of its own, migrated by `node dist/migrate.js`. */
  migrates: boolean;
}

/** Chain ports of the runtime contract and the management port, which users reach. */
export const PROXY_PUBLIC_PORTS = [8332, 18332, 9332, 8545, 9650, 8080];

export const SERVICES: Record<ServiceName, ServiceFacts> = {
  accounts: {
    dir: 'services/accounts',
    environment: accountsEnvironment,
    migrates: true,
    healthPort: ['ACCOUNTS_PORT', 3001],
    ports: [3001],
    hostVariable: 'ACCOUNTS_HOST',
    readinessPath: '/readyz',
  },
  nodes: {
    dir: 'services/nodes',
    environment: nodesEnvironment,
    migrates: true,
    healthPort: ['NODES_PORT', 3002],
    ports: [3002],
    hostVariable: 'NODES_HOST',
    readinessPath: '/readyz',
  },
  staking: {
    dir: 'services/staking',
    environment: stakingEnvironment,
    migrates: true,
    healthPort: ['STAKING_PORT', 3003],
    ports: [3003],
    hostVariable: 'STAKING_HOST',
    readinessPath: '/readyz',
  },
  streams: {
    dir: 'services/streams',
    environment: streamsEnvironment,
    migrates: true,
    healthPort: ['STREAMS_PORT', 3004],
    ports: [3004],
    hostVariable: 'STREAMS_HOST',
    readinessPath: '/readyz',
  },
  'node-proxy': {
    dir: 'services/node-proxy',
    environment: proxyEnvironment,
    migrates: false,
    healthPort: ['PROXY_ADMIN_PORT', 9464],
    ports: [...PROXY_PUBLIC_PORTS, 9464],
    hostVariable: 'PROXY_HOST',
    readinessPath: '/readyz',
  },
};

/** The console depends on nothing at run time (the browser calls the APIs), so /healthz is its readiness too. */
export const CONSOLE: ImageFacts = {
  dir: 'apps/console',
  environment: consoleEnvironment,
  healthPort: ['CONSOLE_PORT', 3000],
  ports: [3000],
  hostVariable: 'CONSOLE_HOST',
  readinessPath: '/healthz',
};

export const IMAGES: Record<ImageName, ImageFacts> = { ...SERVICES, console: CONSOLE };

export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];
export const IMAGE_NAMES = Object.keys(IMAGES) as ImageName[];

/** How an image is built (compose's `build:`): the services from one Dockerfile, SERVICE naming which; the console from its own. */
export function imageBuild(name: ImageName): { context: string; dockerfile: string; args?: Record<string, string> } {
  if (name === 'console') return { context: '.', dockerfile: 'apps/console/Dockerfile' };
  return { context: '.', dockerfile: 'services/Dockerfile', args: { SERVICE: name } };
}

/**
 * Variables of the Kubernetes driver (issue 7, part 1), which adds them to the nodes service's
 * schema: accepted here before it lands, and validated by that schema once it has.
 */
const PENDING_VARIABLES: Partial<Record<ImageName, string[]>> = { nodes: ['KUBE_NAMESPACE', 'KUBE_PLATFORM_NAMESPACE'] };

/** Variables in `env` that the service's configuration does not read: typos, or another service's. */
export function unknownVariables(service: ImageName, env: Record<string, string>): string[] {
  const known = new Set([...Object.keys(IMAGES[service].environment.shape), ...(PENDING_VARIABLES[service] ?? [])]);
  return Object.keys(env).filter((name) => !known.has(name));
}

/** The service's own validation of `env`: throws ConfigError naming each bad variable. */
export function validateEnvironment(service: ImageName, env: Record<string, string>): Record<string, unknown> {
  return loadConfig(IMAGES[service].environment, env) as Record<string, unknown>;
}
