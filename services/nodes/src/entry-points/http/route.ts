import type { RequestHandler } from 'express';
import { clientTokenAuth, errorResponse, routeDeclarer } from '@cloud/http';
import type { NodeAccessRules } from '../../domain/node-access';
import type { NodeCredentials } from '../../domain/node-credentials';
import type { NodeOperations } from '../../domain/node-operations';
import type { NodeRegistry } from '../../domain/node-registry';
import type { PoolRegistry } from '../../domain/pool-registry';
import type { UsageReports } from '../../domain/usage-report';

/** What the nodes API's handlers work with, wired by createNodesApp. */
export interface NodesRouteDeps {
  nodes: NodeRegistry;
  pools: PoolRegistry;
  operations: NodeOperations;
  access: NodeAccessRules;
  credentials: NodeCredentials;
  usageReports: UsageReports;
  requireClient: RequestHandler;
}

/** Declares one route of the nodes API (see ApiRoute in @cloud/http). */
export const nodesRoute = routeDeclarer<NodesRouteDeps>();

/** The client access token every route but GET /chains takes. */
export const clientAuth = clientTokenAuth<NodesRouteDeps>();

export const noSuchNode = errorResponse('no such node of yours (NotFound)');

export const noSuchPool = errorResponse('no such pool of yours (NotFound)');
