import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './services';

export const GATEWAY_CONFIG = path.join(REPO_ROOT, 'deploy', 'gateway', 'nginx.conf');

interface NginxLocation {
  modifier: '=' | '^~' | '';
  path: string;
  /** The upstream block proxy_pass names, or undefined for a location that answers itself. */
  upstream?: string;
}

export interface GatewayConfig {
  /** upstream block name → its `server` address. */
  upstreams: Record<string, string>;
  locations: NginxLocation[];
}

export function readGatewayConfig(text = readFileSync(GATEWAY_CONFIG, 'utf8')): GatewayConfig {
  // Comments and quoted strings out first: a JSON body in `return 404 '{...}'` holds braces.
  const code = text.replace(/#.*$/gm, '').replace(/'[^']*'|"[^"]*"/g, "''");
  const upstreams: Record<string, string> = {};
  for (const match of code.matchAll(/upstream\s+(\S+)\s*\{([^}]*)\}/g)) {
    const server = /server\s+([^\s;]+)/.exec(match[2] ?? '');
    if (match[1] && server?.[1]) upstreams[match[1]] = server[1];
  }
  const locations: NginxLocation[] = [];
  for (const match of code.matchAll(/location\s+([^{]+?)\s*\{([^}]*)\}/g)) {
    const words = (match[1] ?? '').split(/\s+/);
    if (words[0]?.startsWith('@')) continue; // named: reached by error_page only
    const [modifier, locationPath] = words.length === 2 ? [words[0], words[1]] : ['', words[0]];
    if (modifier !== '=' && modifier !== '^~' && modifier !== '') {
      throw new Error(`location ${match[1]}: a regular expression; the matcher of these tests models none`);
    }
    const upstream = /proxy_pass\s+https?:\/\/([^/;\s]+)/.exec(match[2] ?? '')?.[1];
    locations.push({ modifier, path: locationPath ?? '', ...(upstream ? { upstream } : {}) });
  }
  return { upstreams, locations };
}

/** nginx's choice among exact and prefix locations: an exact match, else the longest prefix. */
export function nginxLocationFor(config: GatewayConfig, requestPath: string): NginxLocation | undefined {
  const exact = config.locations.find((location) => location.modifier === '=' && location.path === requestPath);
  if (exact) return exact;
  return config.locations
    .filter((location) => location.modifier !== '=' && requestPath.startsWith(location.path))
    .sort((a, b) => b.path.length - a.path.length)[0];
}

export interface IngressPath {
  path: string;
  pathType: 'Exact' | 'Prefix';
  service: string;
}

/** The Ingress's choice: an Exact match, else the longest Prefix matching whole path elements. */
export function ingressServiceFor(paths: IngressPath[], requestPath: string): string | undefined {
  const exact = paths.find((p) => p.pathType === 'Exact' && p.path === requestPath);
  if (exact) return exact.service;
  const prefixMatches = (prefix: string) => {
    const trimmed = prefix.replace(/\/+$/, '');
    return trimmed === '' || requestPath === trimmed || requestPath.startsWith(`${trimmed}/`);
  };
  return paths.filter((p) => p.pathType === 'Prefix' && prefixMatches(p.path)).sort((a, b) => b.path.length - a.path.length)[0]?.service;
}
