import { buildApiDocument, type OpenApiDocument } from '@cloud/http';
import { streamsRoutes } from './streams.routes';

/** The streams API as served at GET /openapi.json (and /docs). */
export function streamsOpenApiDocument(): OpenApiDocument {
  return buildApiDocument(streamsRoutes, { title: 'Streams API', version: '0.1.0' });
}
