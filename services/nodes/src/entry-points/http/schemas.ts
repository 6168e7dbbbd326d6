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
    networkLabel: z.string().meta({
      description: 'the network in words, as clients show it: `ltc mainnet`, or on a dev chain `ltc dev chain (regtest)` (never `network`)',
      example: 'ltc dev chain (regtest)',
    }),
    pruned: z.boolean().meta({ description: 'true: its nodes keep only recent blocks, so they cannot have a transaction index' }),
  })
  .meta({ id: 'ChainOption' });

/** The most characters (Unicode code points, as PostgreSQL's varchar(64) counts them) of a node's name. */
export const NODE_NAME_MAX_LENGTH = 64;

// Control characters (line breaks, tabs), line and paragraph separators, invisible format
// characters (bidirectional overrides among them, except the zero-width joiner of emoji
// sequences), private-use, unassigned and lone surrogate code points.
const UNPRINTABLE = /(?!\u200d)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}]/u;

/**
 * A node's name, its owner's label for it: 1 to 64 printable characters once trimmed of spaces at
 * either end. The one rule of it: the API checks it here, and forms take its length from the SDK's
 * LIMITS (generated from this document).
 */
export const nodeNameSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .refine((name) => name.length > 0, { error: 'must not be empty (or only spaces)', abort: true })
  .refine((name) => [...name].length <= NODE_NAME_MAX_LENGTH, { error: `must be at most ${NODE_NAME_MAX_LENGTH} characters`, abort: true })
  .refine((name) => !UNPRINTABLE.test(name), { error: 'must be printable: no line breaks, tabs, control or invisible formatting characters' })
  .meta({
    description: `the node's name, your label for it: 1 to ${NODE_NAME_MAX_LENGTH} printable characters, trimmed of spaces at either end; need not be unique`,
    example: 'payments-eth',
    minLength: 1,
    maxLength: NODE_NAME_MAX_LENGTH,
  });

export const createNodeBody = z
  .strictObject({
    image: z.enum(USER_IMAGE_IDS, { error: `must be one of ${USER_IMAGE_IDS.join(', ')}` }),
    name: nodeNameSchema.optional(),
    large: z.boolean({ error: 'must be true or false' }).default(false),
    jwt: z.boolean({ error: 'must be true or false' }).default(false),
    txindex: z.boolean({ error: 'must be true or false' }).default(false).meta({
      description: 'keep a transaction index, so getrawtransaction finds any transaction (Bitcoin family only; not on a pruned chain option). Default false',
    }),
  })
  .meta({ id: 'CreateNodeRequest' });

export const syncSchema = z
  .object({
    height: z.number().int().nullable().meta({ description: "the node's chain height; null when it has no single height (avalanche)" }),
    bestKnownHeight: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'the best height it knows of: its best header or the network tip; null when it does not say' }),
    progress: z.number().min(0).max(1).meta({ description: 'from 0 to 1' }),
    peers: z.number().int().nullable().meta({ description: 'connected peers; null when the software does not say' }),
    syncing: z.boolean().meta({ description: 'still in initial block download (or bootstrapping)' }),
    checkedAt: z.string().meta({ description: 'when the node was asked; refreshed when its answer changes, and at least every 30 s' }),
  })
  .meta({ id: 'NodeSync', description: 'what the node last reported of its sync with its network; null until it first answered' });

export const nodeSchema = z
  .object({
    id: z.string().meta({ example: 'node-0f8e2c4a-5b1d-4e7f-9a3c-2d6b8e1f4a70' }),
    name: z
      .string()
      .nullable()
      .meta({ description: "its name, given at creation or with PATCH; null: none given (validators' nodes have none)", example: 'payments-eth' }),
    user: z.string(),
    image: z.enum(IMAGE_IDS).meta({ description: 'avalanche and avalanchefuji nodes are validators the staking service created' }),
    chain: z.string(),
    network: z.string(),
    software: z.string(),
    large: z.boolean(),
    jwt: z.boolean().meta({ description: 'true: the node takes a client access token (Bearer) instead of Basic credentials' }),
    dev: z.boolean().meta({ description: 'true: the node runs on a private dev chain (regtest, anvil, the dev chain), not on `network`' }),
    networkLabel: z.string().meta({
      description: 'the network in words, as clients show it: `ltc mainnet`, or on a dev chain `ltc dev chain (regtest)` (never `network`)',
      example: 'ltc dev chain (regtest)',
    }),
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

export const updateNodeBody = z
  .strictObject({
    large: z.boolean({ error: 'must be true or false' }).optional().meta({ description: 'the resource class: true for large, false for standard' }),
    name: nodeNameSchema.nullable().optional().meta({ description: 'a new name (the rule of `name` at creation); null removes it' }),
  })
  .refine((body) => body.large !== undefined || body.name !== undefined, { error: 'give large, name or both' })
  .meta({ id: 'UpdateNodeRequest' });

/** stop, start and restart take no input: an empty body or none. */
export const noBody = z.strictObject({}).meta({ id: 'NoInput' });

export const logsQuery = z.strictObject({
  lines: z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(10_000).default(100),
});
