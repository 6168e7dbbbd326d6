import { z } from 'zod';
import { IMAGE_IDS } from '@cloud/chains';
import { POOL_MEMBERS_MAX } from '@cloud/bus';
import { idOf, nodeEndpointsSchema } from '@cloud/http';
import { accessSchema } from './access-schemas';
import { NODE_NAME_MAX_LENGTH, nodeNameSchema, syncSchema } from './schemas';

// Request and response shapes of the pools API (issue 31); they validate input and build the OpenAPI document.

/** The largest lag bound a pool may have (the bus's `maxLagBlocks` bound). */
export const MAX_LAG_BLOCKS = 10_000;

const members = z
  .array(idOf('node'), { error: 'must be a list of node ids' })
  .min(1, 'must name at least one node')
  .max(POOL_MEMBERS_MAX, `must name at most ${POOL_MEMBERS_MAX} nodes`)
  .refine((ids) => new Set(ids).size === ids.length, { error: 'must not name a node twice' })
  .meta({
    description: `1 to ${POOL_MEMBERS_MAX} of your nodes, each once: all of one image and network (dev flag), not being deleted, not validators' nodes. A call goes to a member that runs, is not syncing and is within maxLagBlocks of the best member's head`,
    example: ['node-0f8e2c4a-5b1d-4e7f-9a3c-2d6b8e1f4a70', 'node-7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d'],
  });

const maxLagBlocks = z
  .number({ error: 'must be a whole number of blocks' })
  .int('must be a whole number of blocks')
  .min(0, 'must be at least 0')
  .max(MAX_LAG_BLOCKS, `must be at most ${MAX_LAG_BLOCKS}`)
  .meta({ description: "a member more than this many blocks behind the best member's head gets no calls (default 5)" });

const poolName = nodeNameSchema.meta({
  description: `the pool's name, your label for it: 1 to ${NODE_NAME_MAX_LENGTH} printable characters, trimmed of spaces at either end; need not be unique`,
  example: 'payments-eth',
  minLength: 1,
  maxLength: NODE_NAME_MAX_LENGTH,
});

export const createPoolBody = z.strictObject({ name: poolName, members, maxLagBlocks: maxLagBlocks.optional() }).meta({ id: 'CreatePoolRequest' });

export const updatePoolBody = z
  .strictObject({
    name: poolName.optional(),
    members: members.optional().meta({ description: "the new members, replacing the old as a whole (the rules of creation; of the pool's image and network)" }),
    maxLagBlocks: maxLagBlocks.optional(),
  })
  .refine((body) => body.name !== undefined || body.members !== undefined || body.maxLagBlocks !== undefined, {
    error: 'give name, members, maxLagBlocks or several',
  })
  .meta({ id: 'UpdatePoolRequest' });

export const poolParams = z.object({ id: idOf('pool') });

const poolMemberSchema = z
  .object({
    nodeId: z.string(),
    name: z.string().nullable().meta({ description: "the node's name; null: none given" }),
    state: z.string().meta({ description: "the node's state (a member gets calls while running, not syncing, and within maxLagBlocks of the best head)" }),
    sync: syncSchema.nullable(),
  })
  .meta({ id: 'PoolMember' });

export const poolSchema = z
  .object({
    id: z.string().meta({ example: 'pool-0f8e2c4a-5b1d-4e7f-9a3c-2d6b8e1f4a70' }),
    name: z.string(),
    image: z.enum(IMAGE_IDS).meta({ description: "its members' image" }),
    chain: z.string(),
    network: z.string(),
    networkLabel: z.string().meta({ description: 'the network in words, as a node record says it', example: 'eth dev chain (anvil)' }),
    dev: z.boolean().meta({ description: 'true: its members run on a private dev chain' }),
    maxLagBlocks: z.number().int(),
    members: z.array(poolMemberSchema).meta({ description: 'in the order given; a node deleted since has left (a pool may be left with none)' }),
    endpoints: nodeEndpointsSchema,
    access: accessSchema,
    createdAt: z.string(),
    updatedAt: z.string(),
    nodeUser: z.string().optional().meta({ description: 'Basic user name of its first credential (`default`); only in the answer that created the pool' }),
    nodePass: z.string().optional().meta({ description: 'Basic password of its first credential; shown once, only in the answer that created the pool' }),
  })
  .meta({ id: 'Pool', description: 'one endpoint, with its own credentials and access rules, over several of your nodes of one image and network' });

export const deletedPoolSchema = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: 'DeletedPool' });
