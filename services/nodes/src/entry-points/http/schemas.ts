import { z } from 'zod';
import { IMAGE_IDS, USER_IMAGE_IDS } from '@cloud/chains';
import { idOf, nodeEndpointsSchema } from '@cloud/http';
import { accessSchema } from './access-schemas';

// Request and response shapes of the nodes API; the same schemas validate input and build the
// OpenAPI document.

export const chainOptionSchema = z
  .object({
    image: z.enum(USER_IMAGE_IDS).meta({ description: 'what to pass as `image` to create such a node' }),
    chain: z.string().meta({ example: 'btc' }),
    network: z.string().meta({ example: 'mainnet' }),
    software: z.string().meta({ description: '<software name>-<version> of what runs the node', example: 'litecoin-core-0.21.2.1' }),
    dev: z.boolean().meta({ description: 'true: its nodes run on a private dev chain (regtest, anvil, the dev chain), not on `network`' }),
    networkLabel: z.string().meta({ description: 'the network in words, as clients show it: `ltc mainnet`, or on a dev chain `ltc dev chain (regtest)` (never `network`)', example: 'ltc dev chain (regtest)' }),
    pruned: z.boolean().meta({ description: 'true: its nodes keep only recent blocks, so they cannot have a transaction index' }),
  })
  .meta({ id: 'ChainOption' });

export const createNodeBody = z
  .strictObject({
    image: z.enum(USER_IMAGE_IDS, { error: `must be one of ${USER_IMAGE_IDS.join(', ')}` }),
    large: z.boolean({ error: 'must be true or false' }).default(false),
    jwt: z.boolean({ error: 'must be true or false' }).default(false),
    txindex: z
      .boolean({ error: 'must be true or false' })
      .default(false)
      .meta({ description: 'keep a transaction index, so getrawtransaction finds any transaction (Bitcoin family only; not on a pruned chain option). Default false' }),
  })
  .meta({ id: 'CreateNodeRequest' });

export const syncSchema = z
  .object({
    height: z.number().int().nullable().meta({ description: "the node's chain height; null when it has no single height (avalanche)" }),
    bestKnownHeight: z.number().int().nullable().meta({ description: 'the best height it knows of: its best header or the network tip; null when it does not say' }),
    progress: z.number().min(0).max(1).meta({ description: 'from 0 to 1' }),
    peers: z.number().int().nullable().meta({ description: 'connected peers; null when the software does not say' }),
    syncing: z.boolean().meta({ description: 'still in initial block download (or bootstrapping)' }),
    checkedAt: z.string().meta({ description: 'when the node was asked; refreshed when its answer changes, and at least every 30 s' }),
  })
  .meta({ id: 'NodeSync', description: 'what the node last reported of its sync with its network; null until it first answered' });

export const nodeSchema = z
  .object({
    id: z.string().meta({ example: 'node-0f8e2c4a-5b1d-4e7f-9a3c-2d6b8e1f4a70' }),
    user: z.string(),
    image: z.enum(IMAGE_IDS).meta({ description: 'avalanche and avalanchefuji nodes are validators the staking service created' }),
    chain: z.string(),
    network: z.string(),
    software: z.string(),
    large: z.boolean(),
    jwt: z.boolean().meta({ description: 'true: the node takes a client access token (Bearer) instead of Basic credentials' }),
    dev: z.boolean().meta({ description: 'true: the node runs on a private dev chain (regtest, anvil, the dev chain), not on `network`' }),
    networkLabel: z.string().meta({ description: 'the network in words, as clients show it: `ltc mainnet`, or on a dev chain `ltc dev chain (regtest)` (never `network`)', example: 'ltc dev chain (regtest)' }),
    txindex: z.boolean().meta({ description: 'true: the node keeps a transaction index' }),
    state: z
      .enum(['provisioning', 'syncing', 'running', 'failed', 'stopping', 'stopped', 'deleting'])
      .meta({ description: 'syncing: it answers calls but is still catching up with its network; stopping, stopped: its owner stopped it, its data is kept' }),
    // null until the node first answered
    sync: syncSchema.nullable(),
    stateReason: z.string().nullable().meta({ description: 'why the node failed; null otherwise' }),
    address: z.string().meta({ description: 'host name at the node-proxy: <id>.<NODE_DOMAIN>' }),
    ports: z
      .object({ jsonRpc: z.number().int(), rest: z.number().int().optional(), webSocket: z.number().int().optional() })
      .meta({ description: 'ports of `address` for each interface of the node' }),
    endpoints: nodeEndpointsSchema,
    access: accessSchema,
    createdAt: z.string(),
    updatedAt: z.string(),
    nodeUser: z.string().optional().meta({ description: 'Basic user name of its first credential (`default`); only in the answer that created the node' }),
    nodePass: z.string().optional().meta({ description: 'Basic password of its first credential; shown once, only in the answer that created the node' }),
  })
  .meta({ id: 'Node' });

export const nodeParams = z.object({ id: idOf('node') });

export const resizeNodeBody = z
  .strictObject({
    large: z.boolean({ error: 'must be true or false' }).meta({ description: 'the resource class: true for large, false for standard' }),
  })
  .meta({ id: 'ResizeNodeRequest' });

/** stop, start and restart take no input: an empty body or none. */
export const noBody = z.strictObject({}).meta({ id: 'NoInput' });

export const logsQuery = z.strictObject({
  lines: z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(10_000).default(100),
});
