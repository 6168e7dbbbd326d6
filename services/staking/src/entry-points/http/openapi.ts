import { z } from 'zod';
import { buildOpenApiDocument, clientTokenSecurity, errorResponse, jsonBody, jsonResponse, OpenAPIRegistry, type OpenApiDocument } from '@cloud/http';
import { chainParams, createValidatorBody, limitsSchema, networkParams, stakingNetworkSchema, validatorParams, validatorSchema } from './schemas';

/** The staking API as served at GET /openapi.json (and /docs). */
export function stakingOpenApiDocument(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  const { security, unauthorized } = clientTokenSecurity(registry);
  const noNetwork = errorResponse('no such staking chain or network (NotFound)');
  const noValidator = errorResponse('no such staking network, or no such validator of yours on it (NotFound)');

  registry.registerPath({
    method: 'get',
    path: '/staking/{chain}/chains',
    tags: ['staking'],
    summary: 'The networks of a staking chain that validators can be made on',
    security,
    request: { params: chainParams },
    responses: { 200: jsonResponse('the networks', z.array(stakingNetworkSchema)), 401: unauthorized, 404: noNetwork },
  });
  registry.registerPath({
    method: 'get',
    path: '/staking/{chain}/{network}/limits',
    tags: ['staking'],
    summary: 'The network\'s staking limits: minimum stake, staking period, maximum weight, with where each comes from',
    security,
    request: { params: networkParams },
    responses: { 200: jsonResponse('the limits', limitsSchema), 401: unauthorized, 404: noNetwork },
  });
  registry.registerPath({
    method: 'post',
    path: '/staking/{chain}/{network}/validators',
    tags: ['validators'],
    summary: 'Create a validator node; its chainNodeId is known at once, and its node comes up in the background',
    security,
    request: { params: networkParams, body: { ...jsonBody(createValidatorBody), required: false } },
    responses: {
      200: jsonResponse('the new validator, with its node\'s Basic password (shown once)', validatorSchema),
      400: errorResponse('a body other than {} (InvalidInput)'),
      401: unauthorized,
      403: errorResponse('you have as many validators as allowed (LimitExceeded)'),
      404: noNetwork,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/staking/{chain}/{network}/validators',
    tags: ['validators'],
    summary: 'Your validators on the network, oldest first, each with its registration status',
    security,
    request: { params: networkParams },
    responses: { 200: jsonResponse('your validators', z.array(validatorSchema)), 401: unauthorized, 404: noNetwork },
  });
  registry.registerPath({
    method: 'get',
    path: '/staking/{chain}/{network}/validators/{nodeId}',
    tags: ['validators'],
    summary: 'One validator, with its node\'s state and its registration read from the P-chain through the node',
    security,
    request: { params: validatorParams },
    responses: { 200: jsonResponse('the validator', validatorSchema), 401: unauthorized, 404: noValidator },
  });
  registry.registerPath({
    method: 'delete',
    path: '/staking/{chain}/{network}/validators/{nodeId}',
    tags: ['validators'],
    summary: 'Delete a validator and its node, unless its stake is locked on the P-chain',
    security,
    request: { params: validatorParams },
    responses: {
      200: jsonResponse('the deleted validator', validatorSchema),
      401: unauthorized,
      404: noValidator,
      409: errorResponse('registered (pending or validating) until its end time, or the P-chain cannot be read through a node that has not failed (Conflict)'),
    },
  });
  return buildOpenApiDocument(registry, { title: 'Staking API', version: '0.1.0' });
}
