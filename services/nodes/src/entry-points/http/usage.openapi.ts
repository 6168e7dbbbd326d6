import { errorResponse, jsonResponse, type OpenAPIRegistry } from '@cloud/http';
import { nodeParams } from './schemas';
import { nodeUsageSchema, usageQuery, userUsageSchema } from './usage.schemas';

/** The usage paths of the nodes API. */
export function registerUsagePaths(registry: OpenAPIRegistry, security: { [name: string]: string[] }[], unauthorized: ReturnType<typeof errorResponse>): void {
  const invalid = errorResponse('invalid input, naming the field: a bad date, from not before to, an unknown granularity, or more than 1440 buckets (InvalidInput)');
  registry.registerPath({
    method: 'get',
    path: '/users/me/nodes/{id}/usage',
    tags: ['usage'],
    summary: 'Calls to the node through the node-proxy, by outcome and method, and bytes, in minute (kept a day) or hour (kept 90 days) buckets',
    security,
    request: { params: nodeParams, query: usageQuery },
    responses: { 200: jsonResponse('the node\'s usage', nodeUsageSchema), 400: invalid, 401: unauthorized, 404: errorResponse('no such node of yours (NotFound)') },
  });
  registry.registerPath({
    method: 'get',
    path: '/users/me/usage',
    tags: ['usage'],
    summary: 'Usage across all your nodes, with totals per node',
    security,
    request: { query: usageQuery },
    responses: { 200: jsonResponse('your usage', userUsageSchema), 400: invalid, 401: unauthorized },
  });
}
