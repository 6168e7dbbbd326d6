import type { Express } from 'express';
import { toOpenApiPath, type OpenApiDocument } from './openapi';

export interface MountedRoute {
  method: string;
  path: string;
}

interface Layer {
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/**
 * Lists the method and path of every route an app mounts, including routes of routers mounted at
 * the root. (Routers mounted under a prefix are not supported: services mount theirs at the root
 * so that every path is written out in full where it is defined.)
 */
export function listMountedRoutes(app: Express): MountedRoute[] {
  const routes: MountedRoute[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route && typeof layer.route.path === 'string') {
        for (const method of Object.keys(layer.route.methods)) {
          if (method !== '_all') routes.push({ method, path: layer.route.path });
        }
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return routes;
}

/** Routes every service gets from `createHttpApp`: they describe or watch the service, not its API. */
export const INFRASTRUCTURE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics', '/openapi.json']);

/** Routes for the other services inside the cluster, not clients: neither the gateway nor the ingress routes them. */
const INTERNAL_PATH_PREFIX = '/internal/';

/** The routes of the service's own API: what its OpenAPI document must describe. */
export function listApiRoutes(app: Express): MountedRoute[] {
  return listMountedRoutes(app).filter((route) => !INFRASTRUCTURE_PATHS.has(route.path) && !route.path.startsWith(INTERNAL_PATH_PREFIX));
}

/**
 * Where an app and its OpenAPI document disagree, as `method /path/{param}`: API routes it mounts
 * that the document leaves out, and documented routes it does not mount.
 */
export function compareRoutesWithDocument(app: Express, document: Pick<OpenApiDocument, 'paths'>): { undocumented: string[]; unmounted: string[] } {
  const documented = Object.entries(document.paths ?? {}).flatMap(([path, operations]) => Object.keys(operations ?? {}).map((method) => `${method} ${path}`));
  const mounted = listApiRoutes(app).map((route) => `${route.method} ${toOpenApiPath(route.path)}`);
  return {
    undocumented: mounted.filter((route) => !documented.includes(route)).sort(),
    unmounted: documented.filter((route) => !mounted.includes(route)).sort(),
  };
}
