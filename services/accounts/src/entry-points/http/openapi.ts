import { buildApiDocument, type OpenApiDocument } from '@cloud/http';
import { accountsRoutes } from './routes';

/** The accounts API as served at GET /openapi.json (and /docs). */
export function accountsOpenApiDocument(): OpenApiDocument {
  return buildApiDocument(accountsRoutes, {
    title: 'Accounts API',
    version: '1.0.0',
    description: 'Users, e-mail verification, login, client keys and tokens, and the event list.',
  });
}
