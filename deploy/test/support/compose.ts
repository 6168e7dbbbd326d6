import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from './services';

export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  network_mode?: string;
  depends_on?: Record<string, { condition: string }>;
  /** How long `docker compose stop` waits after SIGTERM before SIGKILL, e.g. `30s` (default 10s). */
  stop_grace_period?: string;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** `${NAME}` and `${NAME:-default}` as docker compose substitutes them, from `env`. */
export function interpolate(text: string, env: Record<string, string> = {}): string {
  return text.replace(/\$\{([A-Z0-9_]+)(?::-([^}]*))?\}/g, (_match, name: string, fallback?: string) => env[name] || (fallback ?? ''));
}

export function loadCompose(env: Record<string, string> = {}): ComposeFile {
  const text = readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
  return parse(interpolate(text, env), { merge: true }) as ComposeFile;
}
