/**
 * nginx as a plain reverse proxy in front of the fast upstream: the Debian package's binary
 * (`apt-get install nginx-light`), a configuration written to a temporary folder, run in the
 * foreground as a child of the benchmark and stopped afterwards. Keep-alive on both sides, no
 * access log, no buffering to disk (the bodies are small).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface RunningNginx {
  /** The master's pid; its workers are its children. */
  pid: number;
  port: number;
  version: string;
  workers: string;
  stop(): Promise<void>;
}

const CANDIDATES = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'];

/** The nginx binary (NGINX_BIN, or the usual places, or on PATH), or undefined. */
export function findNginx(): string | undefined {
  const configured = process.env.NGINX_BIN;
  if (configured) return existsSync(configured) ? configured : undefined;
  const found = CANDIDATES.find((candidate) => existsSync(candidate));
  if (found) return found;
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  const onPath = which.stdout.trim();
  return which.status === 0 && onPath ? onPath : undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export function nginxConfig(options: { dir: string; port: number; upstreamPort: number; workers: string; authorization?: string | undefined }): string {
  const { dir, port, upstreamPort, workers, authorization } = options;
  // In front of a real node nginx logs in to it as the node-proxy does (one fixed header).
  const login = authorization ? `\n      proxy_set_header Authorization "${authorization}";` : '';
  return `# Written by bench/src/proxy/nginx.ts: nginx as a plain reverse proxy for the benchmark.
worker_processes ${workers};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events {
  worker_connections 4096;
}
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  # autocannon keeps its connections for the whole run; nginx's default (1,000 requests) would
  # close them every 1,000 requests, which Node's servers and undici never do.
  keepalive_requests 10000000;
  keepalive_timeout 65s;
  upstream fast {
    server 127.0.0.1:${upstreamPort};
    keepalive 32;
    keepalive_requests 10000000;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://fast;
      proxy_http_version 1.1;
      proxy_set_header Connection "";${login}
    }
  }
}
`;
}

/** Starts nginx in front of the upstream; resolves once it accepts connections. */
export async function startNginx(binary: string, upstreamPort: number, workers: string, authorization?: string): Promise<RunningNginx> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-nginx-'));
  const port = await freePort();
  const file = path.join(dir, 'nginx.conf');
  writeFileSync(file, nginxConfig({ dir, port, upstreamPort, workers, authorization }));
  const versionRun = spawnSync(binary, ['-v'], { encoding: 'utf8' });
  const version = (versionRun.stderr || versionRun.stdout).trim().replace(/^nginx version: nginx\//, '');
  const args = ['-e', path.join(dir, 'error.log'), '-p', dir, '-c', file, '-g', 'daemon off;'];
  const child: ChildProcess = spawn(binary, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const errorLog = () => {
    try {
      return readFileSync(path.join(dir, 'error.log'), 'utf8').trim();
    } catch {
      return '';
    }
  };
  const cleanUp = () => rmSync(dir, { recursive: true, force: true });
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      const log = errorLog();
      cleanUp();
      throw new Error(`nginx did not start: ${log || `exit ${child.exitCode ?? child.signalCode}`}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    pid: child.pid!,
    port,
    version,
    workers,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGQUIT'); // graceful: workers finish and exit with the master
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      cleanUp();
    },
  };
}
