// The routes each API declares, from the same OpenAPI builders the services serve at /openapi.json:
// a route added to a service without a way through the gateway or the Ingress fails these tests.
import { accountsOpenApiDocument } from '../../../services/accounts/src/entry-points/http/openapi';
import { nodesOpenApiDocument } from '../../../services/nodes/src/entry-points/http/openapi';
import { stakingOpenApiDocument } from '../../../services/staking/src/entry-points/http/openapi';
import { streamsOpenApiDocument } from '../../../services/streams/src/entry-points/http/openapi';

export type ApiService = 'accounts' | 'nodes' | 'staking' | 'streams';

export interface DeclaredRoute {
  service: ApiService;
  method: string;
  /** OpenAPI template, e.g. `/users/me/nodes/{id}`. */
  template: string;
}

const DOCUMENTS: Record<ApiService, () => { paths?: Record<string, object> }> = {
  accounts: accountsOpenApiDocument,
  nodes: nodesOpenApiDocument,
  staking: stakingOpenApiDocument,
  streams: streamsOpenApiDocument,
};

export function declaredRoutes(): DeclaredRoute[] {
  return (Object.keys(DOCUMENTS) as ApiService[]).flatMap((service) =>
    Object.entries(DOCUMENTS[service]().paths ?? {}).flatMap(([template, operations]) =>
      Object.keys(operations).map((method) => ({ service, method: method.toUpperCase(), template })),
    ),
  );
}

// Parameter values chosen to collide: a user id "me", a node id "nodes", a chain "staking".
const SAMPLES = ['x-1', 'me', 'nodes', 'staking'];

/** Concrete request paths for a template, one per sample parameter value. */
export function samplePaths(template: string): string[] {
  return template.includes('{') ? SAMPLES.map((sample) => template.replace(/\{[^}]+\}/g, sample)) : [template];
}
