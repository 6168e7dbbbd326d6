/**
 * What the benchmark measures: the upstream directly, and each proxy in front of it. Each is
 * started as its own process; one that cannot be started here (nginx not installed, http-proxy
 * not in node_modules) is skipped with the reason, and the rest run.
 */
import { createRequire } from 'node:module';
import { startChild } from './child';
import { findNginx, startNginx } from './nginx';
import { BENCH_NODE_ID, BENCH_NODE_PASSWORD, BENCH_NODE_USER } from './requests';

export const TARGET_NAMES = [
  'direct',
  'node-proxy',
  'node-proxy-no-cache',
  'node-proxy-tls',
  'node-proxy-workers',
  'node-proxy-baseline',
  'nginx',
  'nginx-workers',
  'undici',
  'undici-stream',
  'node-http',
  'http-proxy',
] as const;
export type TargetName = (typeof TARGET_NAMES)[number];

export interface Target {
  name: TargetName;
  /** How the tables name it. */
  label: string;
  url: string;
  headers: Record<string, string>;
  /** The processes doing the target's work (for direct: the upstream itself). */
  pids: number[];
  /** TLS server name (the node's host name) for an https target. */
  servername?: string;
  /** A node-proxy's Prometheus `/metrics` (one process: a cluster's workers have none). */
  metricsUrl?: string;
  stop(): Promise<void>;
}

export type Started = { target: Target } | { skipped: string };

export const JSON_HEADERS = { 'content-type': 'application/json' };

/** What the targets are put in front of. */
export interface UpstreamInfo {
  port: number;
  pids: number[];
  /** The bench node's image: the node-proxy's listener that serves it. */
  image: 'eth' | 'ltc';
  /** The RPC login a real node takes (the node-proxy derives it from `keyFile`; direct calls and nginx send it as is). */
  authorization?: string | undefined;
  keyFile?: string | undefined;
  /** On a private dev chain: the route says so, as the nodes service's does (the proxy's finality depth for dev chains applies). */
  dev?: boolean;
}

export interface TargetOptions {
  upstream: UpstreamInfo;
  nginxWorkers: string;
  /** Processes of the `-workers` targets: node-proxy workers, nginx worker_processes. */
  workers: number;
  /** Node options for the node-proxy's process, e.g. `--cpu-prof`. */
  proxyExecArgv: string[];
  /** A checkout (built) whose node-proxy the `node-proxy-baseline` target runs; unset: that target is skipped. */
  baselineRoot: string | undefined;
  /** How the tables name the baseline: its commit. */
  baselineLabel: string;
}

/** The bench node's host name under the proxy's default NODE_DOMAIN. */
const nodeHostName = () => `${BENCH_NODE_ID}.nodes.localhost`;

/** The headers a call to the bench node through our node-proxy listening on `port` carries (its host name and Basic credentials). */
export function nodeProxyHeaders(port: number): Record<string, string> {
  return {
    ...JSON_HEADERS,
    host: `${nodeHostName()}:${port}`,
    authorization: `Basic ${Buffer.from(`${BENCH_NODE_USER}:${BENCH_NODE_PASSWORD}`).toString('base64')}`,
  };
}

export async function startTarget(name: TargetName, options: TargetOptions): Promise<Started> {
  const { upstream } = options;
  const upstreamPort = String(upstream.port);
  switch (name) {
    case 'direct':
      return {
        target: {
          name,
          label: 'direct (upstream alone)',
          url: `http://127.0.0.1:${upstreamPort}/`,
          headers: upstream.authorization ? { ...JSON_HEADERS, authorization: upstream.authorization } : JSON_HEADERS,
          pids: upstream.pids,
          stop: async () => undefined,
        },
      };
    case 'node-proxy':
    case 'node-proxy-no-cache':
    case 'node-proxy-tls':
    case 'node-proxy-workers':
    case 'node-proxy-baseline': {
      if (name === 'node-proxy-baseline' && !options.baselineRoot) {
        return { skipped: 'no baseline checkout (set BASELINE_ROOT to a built checkout of an earlier commit)' };
      }
      const baseline = name === 'node-proxy-baseline' ? [options.baselineRoot!] : [];
      const workers = name === 'node-proxy-workers' ? options.workers : 1;
      const tls = name === 'node-proxy-tls';
      const noCache = name === 'node-proxy-no-cache';
      const env = {
        ...process.env,
        PROXY_WORKERS: String(workers),
        BENCH_NODE_IMAGE: upstream.image,
        BENCH_PROXY_TLS: tls ? 'on' : 'off',
        ...(upstream.keyFile ? { BENCH_NODE_RPC_KEY_FILE: upstream.keyFile } : {}),
        ...(upstream.dev ? { BENCH_NODE_DEV: '1' } : {}),
        ...(noCache ? { BENCH_PROXY_CACHE_BYTES: '0' } : {}),
      };
      const child = await startChild('node-proxy', [upstreamPort, ...baseline], options.proxyExecArgv, { env });
      const label = baseline.length ? `our node-proxy at the baseline (${options.baselineLabel})` : '**our node-proxy** (auth + filter + metering)';
      return {
        target: {
          name,
          label: `${label}${tls ? ', TLS on' : ''}${workers > 1 ? `, ${workers} workers` : ''}${noCache ? ', no cache (`PROXY_CACHE_BYTES=0`)' : ''}`,
          url: `${tls ? 'https' : 'http'}://127.0.0.1:${child.port}/`,
          headers: nodeProxyHeaders(child.port),
          pids: [child.pid],
          ...(tls ? { servername: nodeHostName() } : {}),
          ...(workers === 1 && child.facts.adminUrl ? { metricsUrl: new URL('/metrics', child.facts.adminUrl).href } : {}),
          stop: child.stop,
        },
      };
    }
    case 'nginx':
    case 'nginx-workers': {
      const binary = findNginx();
      if (!binary) return { skipped: 'nginx is not installed (`apt-get install -y nginx-light`, or set NGINX_BIN)' };
      const workers = name === 'nginx-workers' ? String(options.workers) : options.nginxWorkers;
      const nginx = await startNginx(binary, upstream.port, workers, upstream.authorization);
      return {
        target: {
          name,
          label: `nginx ${nginx.version} (worker_processes ${nginx.workers})`,
          url: `http://127.0.0.1:${nginx.port}/`,
          headers: JSON_HEADERS,
          pids: [nginx.pid],
          stop: nginx.stop,
        },
      };
    }
    case 'undici':
    case 'undici-stream':
    case 'node-http':
    case 'http-proxy': {
      if (upstream.authorization) return { skipped: 'the reference pass-throughs do not log in to a node; they run against the synthetic upstream only' };
      if (name === 'http-proxy' && !resolvable('http-proxy')) {
        return { skipped: 'http-proxy is not installed (not a dependency of this repository)' };
      }
      const child = await startChild('pass-through', [name, upstreamPort]);
      const labels = {
        undici: 'bare undici pass-through (`request` + `pipeline`)',
        'undici-stream': 'bare undici pass-through (`stream`, as the node-proxy)',
        'node-http': 'bare node:http pass-through',
        'http-proxy': 'http-proxy pass-through',
      };
      return { target: { name, label: labels[name], url: `http://127.0.0.1:${child.port}/`, headers: JSON_HEADERS, pids: [child.pid], stop: child.stop } };
    }
  }
}

function resolvable(id: string): boolean {
  try {
    createRequire(__filename).resolve(id);
    return true;
  } catch {
    return false;
  }
}
