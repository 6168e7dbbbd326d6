import { createOutbox } from '@cloud/bus';
import type { Migration } from '@cloud/db';
import { createNodes } from './20261122100100_create_nodes';
import { addNodesUpstreamUrl } from './20261123100100_add_nodes_upstream_url';

/** The schema this service owns. */
export const NODES_SCHEMA = 'nodes';

/** Every migration of the nodes schema; add new ones at the end. */
export const nodesMigrations: Migration[] = [createOutbox, createNodes, addNodesUpstreamUrl];
