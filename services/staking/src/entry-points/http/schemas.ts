import { z } from 'zod';
import { idOf, nodeEndpointsSchema } from '@cloud/http';

// Request and response shapes of the staking API; the same schemas validate input and build the
// OpenAPI document.

const chain = z.string().min(1).max(64).meta({ description: 'the staking chain', example: 'avalanche' });
const network = z.string().min(1).max(64).meta({ description: 'its network: mainnet or fuji', example: 'fuji' });

export const chainParams = z.object({ chain });
export const networkParams = z.object({ chain, network });
export const validatorParams = z.object({ chain, network, nodeId: idOf('node').meta({ description: 'the nodeId the creation answered' }) });

/** The creation takes no body: none, or an empty JSON object. */
export const createValidatorBody = z
  .strictObject({}, { error: 'this call takes no body' })
  .meta({ id: 'CreateValidatorRequest', description: 'no body, or {}' });

export const stakingNetworkSchema = z.object({ chain: z.string(), network: z.string() }).meta({ id: 'StakingNetwork' });

const isoTime = z.string().meta({ description: 'ISO 8601 UTC' });
const nAvax = (description: string) =>
  z
    .string()
    .regex(/^\d+$/)
    .meta({ description: `${description}, in nAVAX (10^-9 AVAX), as a decimal string` });

export const registrationSchema = z
  .object({
    status: z.enum(['unregistered', 'pending', 'validating', 'ended', 'starting', 'unknown']).meta({
      description:
        'unregistered: the P-chain has never listed it; pending: registered, start time to come; validating; ended: its staking period is over; starting: its node is provisioning or bootstrapping, the P-chain is read once it runs (see reason); unknown: the P-chain could not be read through the node (see reason)',
    }),
    checkedAt: isoTime.meta({ description: 'when the P-chain was read, through the node (answers are reused for a few seconds)' }),
    txId: z.string().optional().meta({ description: 'the transaction that registered it' }),
    startTime: isoTime.optional(),
    endTime: isoTime.optional().meta({ description: 'end of the staking period; the validator cannot be deleted before it' }),
    stake: nAvax('its own stake').optional(),
    delegatedWeight: nAvax('stake delegated to it').optional(),
    weight: nAvax('own plus delegated stake').optional(),
    uptime: z.number().optional().meta({ description: 'percent, as the node sees it' }),
    connected: z.boolean().optional(),
    reason: z.string().optional().meta({ description: 'why the status is starting or unknown' }),
  })
  .meta({ id: 'Registration', description: 'the validator on the P-chain, read from its own node' });

export const validatorSchema = z
  .object({
    nodeId: z.string().meta({ example: 'node-0f8e2c4a-5b1d-4e7f-9a3c-2d6b8e1f4a70' }),
    chainNodeId: z
      .string()
      .meta({ description: 'the NodeID to register on the P-chain, from its staking certificate', example: 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg' }),
    chain: z.string(),
    network: z.string(),
    dev: z.boolean().nullable().meta({
      description:
        "true: its node runs on a private dev chain (the dev chain's simulated P-chain), not on `network`; null: not known yet, until the nodes service announces the node (a second or so after creation)",
    }),
    networkLabel: z.string().meta({
      description: 'the network in words, as clients show it: `avalanche fuji`, or on a dev chain `avalanche dev chain (simulated P-chain)` (never `network`)',
      example: 'avalanche fuji',
    }),
    image: z.string().meta({ description: 'the node image it runs: avalanche (mainnet) or avalanchefuji' }),
    state: z
      .enum(['provisioning', 'syncing', 'running', 'failed', 'deleting', 'deleted'])
      .meta({ description: "the node's state; syncing: it answers but is still bootstrapping" }),
    stateReason: z.string().nullable().meta({ description: 'why the node failed; null otherwise' }),
    address: z.string().meta({ description: 'host name at the node-proxy: <nodeId>.<NODE_DOMAIN>' }),
    ports: z
      .object({ jsonRpc: z.number().int(), management: z.number().int() })
      .meta({ description: "HTTPS ports of `address`: avalanchego's API, and /status, /logs" }),
    endpoints: nodeEndpointsSchema,
    nodeUser: z.string().meta({ description: 'Basic user name of the node' }),
    nodePass: z.string().optional().meta({ description: 'Basic password of the node; shown once, in the answer that created it' }),
    createdAt: isoTime,
    registration: registrationSchema,
  })
  .meta({ id: 'Validator' });

const sourced = { text: z.string(), source: z.string().meta({ description: 'where the value comes from' }) };

export const limitsSchema = z
  .object({
    chain: z.string(),
    network: z.string(),
    token: z.literal('AVAX'),
    minimumStake: z.object({ avax: z.number(), ...sourced }),
    minimumStakeDuration: z.object({ seconds: z.number().int(), ...sourced }),
    maximumStakeDuration: z.object({ seconds: z.number().int(), ...sourced }),
    maximumWeight: z.object({ avax: z.number(), ownStakeFactor: z.number(), includesDelegations: z.literal(true), ...sourced }),
  })
  .meta({ id: 'StakingLimits' });
