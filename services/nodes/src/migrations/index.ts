import { createOutbox } from '@cloud/bus';
import type { Migration } from '@cloud/db';
import { createNodes } from './20261122100100_create_nodes';
import { addNodesUpstreamUrl } from './20261123100100_add_nodes_upstream_url';
import { addNodesStartAfterStop } from './20261125100100_add_nodes_start_after_stop';
import { addNodesDevAndTxindex } from './20261125100200_add_nodes_dev_and_txindex';
import { addNodesSync } from './20261125100300_add_nodes_sync';
import { addNodeCredentialsAndAccess } from './20261125140100_add_node_credentials_and_access';
import { createUsage } from './20261125150100_create_usage';
import { createUsageCredentials } from './20261125160100_create_usage_credentials';
import { addNodesLeaseGeneration } from './20261125170100_add_nodes_lease_generation';
import { addNodesName } from './20261127100100_add_nodes_name';
import { createPools } from './20261128100100_create_pools';
import { addUsageCachedAndMembers } from './20261128120100_add_usage_cached_and_members';

/** The schema this service owns. */
export const NODES_SCHEMA = 'nodes';

/** Every migration of the nodes schema; add new ones at the end. */
export const nodesMigrations: Migration[] = [
  createOutbox,
  createNodes,
  addNodesUpstreamUrl,
  addNodesStartAfterStop,
  addNodesDevAndTxindex,
  addNodesSync,
  addNodeCredentialsAndAccess,
  createUsage,
  createUsageCredentials,
  addNodesLeaseGeneration,
  addNodesName,
  createPools,
  addUsageCachedAndMembers,
];
