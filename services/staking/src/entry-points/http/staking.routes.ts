import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import { authOf } from '@cloud/auth';
import { clientTokenAuth, errorResponse, InvalidInputError, jsonResponse, routeDeclarer } from '@cloud/http';
import type { ValidatorsService } from '../../domain/validators';
import { chainParams, createValidatorBody, limitsSchema, networkParams, stakingNetworkSchema, validatorParams, validatorSchema } from './schemas';

/** What the staking API's handlers work with, wired by createStakingApp. */
export interface StakingRouteDeps {
  validators: ValidatorsService;
  requireClient: RequestHandler;
}

const stakingRoute = routeDeclarer<StakingRouteDeps>();
const clientAuth = clientTokenAuth<StakingRouteDeps>();
const noNetwork = errorResponse('no such staking chain or network (NotFound)');
const noValidator = errorResponse('no such staking network, or no such validator of yours on it (NotFound)');

/** Every route of the staking API, in the order of its OpenAPI document: each takes a client access token. */
export const stakingRoutes = [
  stakingRoute({
    method: 'get',
    path: '/staking/:chain/chains',
    tags: ['staking'],
    summary: 'The networks of a staking chain that validators can be made on',
    auth: clientAuth,
    request: { params: chainParams },
    responses: { 200: jsonResponse('the networks', z.array(stakingNetworkSchema)), 404: noNetwork },
    handler: ({ params: { chain }, res, deps }) => {
      res.json(deps.validators.networks(chain));
    },
  }),
  stakingRoute({
    method: 'get',
    path: '/staking/:chain/:network/limits',
    tags: ['staking'],
    summary: "The network's staking limits: minimum stake, staking period, maximum weight, with where each comes from",
    auth: clientAuth,
    request: { params: networkParams },
    responses: { 200: jsonResponse('the limits', limitsSchema), 404: noNetwork },
    handler: ({ params, res, deps }) => {
      res.json(deps.validators.limits(params));
    },
  }),
  stakingRoute({
    method: 'post',
    path: '/staking/:chain/:network/validators',
    tags: ['validators'],
    summary: 'Create a validator node; its chainNodeId is known at once, and its node comes up in the background',
    auth: clientAuth,
    // No body, or {}: clients that always send one are served; any other JSON is refused by the schema.
    request: { params: networkParams, body: createValidatorBody, bodyRequired: false },
    responses: {
      200: jsonResponse("the new validator, with its node's Basic password (shown once)", validatorSchema),
      400: errorResponse('a body other than {} (InvalidInput)'),
      403: errorResponse('you have as many validators as allowed (LimitExceeded)'),
      404: noNetwork,
    },
    handler: async ({ params, req, res, deps }) => {
      refuseUnparsedBody(req);
      res.json(await deps.validators.create({ ...params, userId: authOf(res).sub }));
    },
  }),
  stakingRoute({
    method: 'get',
    path: '/staking/:chain/:network/validators',
    tags: ['validators'],
    summary: 'Your validators on the network, oldest first, each with its registration status',
    auth: clientAuth,
    request: { params: networkParams },
    responses: { 200: jsonResponse('your validators', z.array(validatorSchema)), 404: noNetwork },
    handler: async ({ params, res, deps }) => {
      res.json(await deps.validators.list({ ...params, userId: authOf(res).sub }));
    },
  }),
  stakingRoute({
    method: 'get',
    path: '/staking/:chain/:network/validators/:nodeId',
    tags: ['validators'],
    summary: "One validator, with its node's state and its registration read from the P-chain through the node",
    auth: clientAuth,
    request: { params: validatorParams },
    responses: { 200: jsonResponse('the validator', validatorSchema), 404: noValidator },
    handler: async ({ params: { nodeId, ...network }, res, deps }) => {
      res.json(await deps.validators.get({ ...network, userId: authOf(res).sub }, nodeId));
    },
  }),
  stakingRoute({
    method: 'delete',
    path: '/staking/:chain/:network/validators/:nodeId',
    tags: ['validators'],
    summary: 'Delete a validator and its node, unless its stake is locked on the P-chain',
    auth: clientAuth,
    request: { params: validatorParams },
    responses: {
      200: jsonResponse('the deleted validator', validatorSchema),
      404: noValidator,
      409: errorResponse('registered (pending or validating) until its end time, or the P-chain cannot be read through a node that has not failed (Conflict)'),
    },
    handler: async ({ params: { nodeId, ...network }, res, deps }) => {
      res.json(await deps.validators.delete({ ...network, userId: authOf(res).sub }, nodeId));
    },
  }),
];

/**
 * A body the JSON parser did not take (another content type) is refused rather than ignored, since
 * the caller expected it to mean something.
 */
function refuseUnparsedBody(req: Request): void {
  if (req.body !== undefined) return;
  if (Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined)
    throw new InvalidInputError('body: this call takes no body');
}
