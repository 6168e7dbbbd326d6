import { accessRoutes } from './access.routes';
import { nodesRoutes } from './nodes.routes';
import { poolsRoutes } from './pools.routes';
import { usageRoutes } from './usage.routes';

/** Every route of the nodes API, in the order of its OpenAPI document. */
export const nodesApiRoutes = [...nodesRoutes, ...poolsRoutes, ...accessRoutes, ...usageRoutes];
