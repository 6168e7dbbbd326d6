import { buildApiDocument, type OpenApiDocument } from '@cloud/http';
import { stakingRoutes } from './staking.routes';

/** The staking API as served at GET /openapi.json (and /docs). */
export function stakingOpenApiDocument(): OpenApiDocument {
  return buildApiDocument(stakingRoutes, { title: 'Staking API', version: '0.1.0' });
}
