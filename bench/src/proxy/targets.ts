/**
 * What the benchmark measures: the upstream directly, and each proxy in front of it. Each is
 * started as its own process; one that cannot be started here (nginx not installed, http-proxy
 * not in node_modules) is skipped with the reason, and the rest run.
 */
import { createRequire } from 'node:module';
import { startChild } from './child';
import { findNginx, startNginx } from './nginx';
import { BENCH_NODE_ID, BENCH_NODE_PASSWORD, BENCH_NODE_USER } from './requests';

/** Worker processes of the node-proxy targets (node-proxy.ts reads it too). */
const PROXY_WORKERS = Number(process.env.PROXY_WORKERS || '1');

export const TARGET_NAMES = ['direct', 'node-proxy', 'node-proxy-baseline', 'nginx', 'undici', 'undici-stream', 'node-http', 'http-proxy'] as const;
export type TargetName = (typeof TARGET_NAMES)[number];

export interface Target {
  name: TargetName;
  /** How the tables name it. */
  label: string;
  url: string;
  headers: Record<string, string>;
  /** The processes doing the target's work (for direct: the upstream itself). */
  pids: number[];
  stop(): Promise<void>;
}

export type Started = { target: Target } | { skipped: string };

const JSON_HEADERS = { 'content-type': 'application/json' };

export interface TargetOptions {
  upstream: { port: number; pid: number };
  nginxWorkers: string;
  /** Node options for the node-proxy's process, e.g. `--cpu-prof`. */
  proxyExecArgv: string[];
  /** A checkout (built) whose node-proxy the `node-proxy-baseline` target runs; unset: that target is skipped. */
  baselineRoot: string | undefined;
  /** How the tables name the baseline: its commit. */
  baselineLabel: string;
}

/** The headers a call to the bench node through our node-proxy listening on `port` carries (its host name and Basic credentials). */
export function nodeProxyHeaders(port: number): Record<string, string> {
  return {
    ...JSON_HEADERS,
    host: `${BENCH_NODE_ID}.nodes.localhost:${port}`,
    authorization: `Basic ${Buffer.from(`${BENCH_NODE_USER}:${BENCH_NODE_PASSWORD}`).toString('base64')}`,
  };
}

export async function startTarget(name: TargetName, options: TargetOptions): Promise<Started> {
  const upstreamPort = String(options.upstream.port);
  switch (name) {
    case 'direct':
      return {
        target: {
          name,
          label: 'direct (upstream alone)',
          url: `http://127.0.0.1:${upstreamPort}/`,
          headers: JSON_HEADERS,
          pids: [options.upstream.pid],
          stop: async () => undefined,
        },
      };
    case 'node-proxy':
    case 'node-proxy-baseline': {
      if (name === 'node-proxy-baseline' && !options.baselineRoot) {
        return { skipped: 'no baseline checkout (set BASELINE_ROOT to a built checkout of an earlier commit)' };
      }
      const baseline = name === 'node-proxy-baseline' ? [options.baselineRoot!] : [];
      const child = await startChild('node-proxy', [upstreamPort, ...baseline], options.proxyExecArgv);
      return {
        target: {
          name,
          label: `${baseline.length ? `our node-proxy at the baseline (${options.baselineLabel})` : '**our node-proxy** (auth + filter + metering)'}${PROXY_WORKERS > 1 ? `, ${PROXY_WORKERS} workers` : ''}`,
          url: `http://127.0.0.1:${child.port}/`,
          headers: nodeProxyHeaders(child.port),
          pids: [child.pid],
          stop: child.stop,
        },
      };
    }
    case 'nginx': {
      const binary = findNginx();
      if (!binary) return { skipped: 'nginx is not installed (`apt-get install -y nginx-light`, or set NGINX_BIN)' };
      const nginx = await startNginx(binary, options.upstream.port, options.nginxWorkers);
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
