import { z } from 'zod';
import { IMAGE_IDS, USER_IMAGE_IDS } from '@cloud/chains';

// Request and response shapes of the nodes API; the same schemas validate input and build the
// OpenAPI document.

export const chainOptionSchema = z
  .object({
    image: z.enum(USER_IMAGE_IDS).meta({ description: 'what to pass as `image` to create such a node' }),
    chain: z.string().meta({ example: 'btc' }),
    network: z.string().meta({ example: 'mainnet' }),
    software: z.string().meta({ description: '<software name>-<version> of what runs the node', example: 'litecoin-core-0.21.2.1' }),
  })
  .meta({ id: 'ChainOption' });

export const createNodeBody = z
  .strictObject({
    image: z.enum(USER_IMAGE_IDS, { error: `must be one of ${USER_IMAGE_IDS.join(', ')}` }),
    large: z.boolean({ error: 'must be true or false' }).default(false),
    jwt: z.boolean({ error: 'must be true or false' }).default(false),
  })
  .meta({ id: 'CreateNodeRequest' });

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
    state: z.enum(['provisioning', 'running', 'failed', 'deleting']),
    stateReason: z.string().nullable().meta({ description: 'why the node failed; null otherwise' }),
    address: z.string().meta({ description: 'host name at the node-proxy: <id>.<NODE_DOMAIN>' }),
    ports: z
      .object({ jsonRpc: z.number().int(), rest: z.number().int().optional(), webSocket: z.number().int().optional() })
      .meta({ description: 'ports of `address` for each interface of the node' }),
    createdAt: z.string(),
    updatedAt: z.string(),
    nodeUser: z.string().optional().meta({ description: 'Basic user name; only in the answer that created or rotated it' }),
    nodePass: z.string().optional().meta({ description: 'Basic password; shown once, only in the answer that created or rotated it' }),
  })
  .meta({ id: 'Node' });

export const nodeParams = z.object({ id: z.string().min(1).max(64) });

export const logsQuery = z.strictObject({
  lines: z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(10_000).default(100),
});
