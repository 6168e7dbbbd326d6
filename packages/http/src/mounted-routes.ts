import type { Express } from 'express';

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
