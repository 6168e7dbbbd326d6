export { createNodesApp, NODES_SERVICE_NAME } from './app';
export type { NodesApp, NodesAppDependencies } from './app';
export { loadNodesConfig, nodesEnvironment } from './config';
export type { NodesConfig } from './config';
export { createNodesService } from './service';
export type { NodesService, NodesServiceOptions } from './service';
export type { ChainOption, InternalEndpoint, NodeDriver, NodeSpec, NodeStatus } from './drivers/driver';
export { nodesMigrations, NODES_SCHEMA } from './migrations';
export { nodesOpenApiDocument } from './entry-points/http/openapi';
