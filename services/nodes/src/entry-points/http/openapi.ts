import { buildApiDocument, type OpenApiDocument } from '@cloud/http';
import { nodesApiRoutes } from './routes';

/** The nodes API as served at GET /openapi.json (and /docs). */
export function nodesOpenApiDocument(): OpenApiDocument {
  return buildApiDocument(nodesApiRoutes, { title: 'Nodes API', version: '0.1.0' });
}
