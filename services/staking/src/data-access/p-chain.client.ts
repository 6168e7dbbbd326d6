import { z } from 'zod';
import { nodeRpcAuthorization } from '@cloud/node-rpc-auth';

/** The validator's current registration as its node's P-chain reports it. */
export interface ChainValidator {
  txId: string;
  startTime: Date;
  endTime: Date;
  /** Own stake, nAVAX. */
  stake: string;
  /** Stake delegated to it, nAVAX. */
  delegatedWeight: string;
  /** Percent, when the node reports it. */
  uptime?: number;
  connected?: boolean;
}

/** Why the P-chain could not be read through the node; the message is shown to the user. */
export class ChainReadError extends Error {}

const nAvax = z.string().regex(/^\d{1,30}$/, 'a whole number of nAVAX');
const unixSeconds = z.string().regex(/^\d{1,12}$/, 'unix seconds');

// One element of platform.getCurrentValidators (avalanchego >= 1.11 writes numbers as strings;
// before, the own stake was `stakeAmount`).
const currentValidatorSchema = z
  .object({
    txID: z.string().min(1).max(128),
    nodeID: z.string(),
    startTime: unixSeconds,
    endTime: unixSeconds,
    weight: nAvax.optional(),
    stakeAmount: nAvax.optional(),
    delegatorWeight: nAvax.optional(),
    uptime: z
      .string()
      .regex(/^\d+(\.\d+)?$/, 'a percentage')
      .optional(),
    connected: z.boolean().optional(),
  })
  .refine((validator) => validator.weight !== undefined || validator.stakeAmount !== undefined, 'weight (or stakeAmount) is missing');

const currentValidatorsSchema = z.object({ validators: z.array(z.looseObject({ nodeID: z.string() })) });
const bootstrappedSchema = z.object({ isBootstrapped: z.boolean() });

export interface PChainClientOptions {
  /** The key deriving each node's internal RPC login, shared with the nodes service and the node-proxy. */
  rpcKey: Buffer;
  timeoutMs: number;
}

/**
 * Reads a validator's registration from the P-chain of its own node (avalanchego's JSON-RPC, or
 * the dev chain's Avalanche mode), logging in as the node-proxy does. The node's answer counts
 * only once it has bootstrapped the P-chain: before, its validator set is an old one.
 */
export class PChainClient {
  constructor(private readonly options: PChainClientOptions) {}

  /** The validator's current registration, or null when the P-chain does not list it; throws ChainReadError when it cannot tell. */
  async currentValidator(upstream: string, nodeId: string, chainNodeId: string): Promise<ChainValidator | null> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    const call = (path: string, method: string, params: object) => this.call(upstream, nodeId, path, method, params, signal);
    const [bootstrapped, current] = await Promise.all([
      call('/ext/info', 'info.isBootstrapped', { chain: 'P' }).then((result) => parse(bootstrappedSchema, result, 'info.isBootstrapped')),
      call('/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [chainNodeId] }).then((result) =>
        parse(currentValidatorsSchema, result, 'platform.getCurrentValidators'),
      ),
    ]);
    if (!bootstrapped.isBootstrapped) throw new ChainReadError('the node is still bootstrapping the P-chain');
    const listed = current.validators.find((validator) => validator.nodeID === chainNodeId);
    if (!listed) return null;
    const validator = parse(currentValidatorSchema, listed, 'platform.getCurrentValidators');
    return {
      txId: validator.txID,
      startTime: new Date(Number(validator.startTime) * 1000),
      endTime: new Date(Number(validator.endTime) * 1000),
      stake: (validator.weight ?? validator.stakeAmount)!,
      delegatedWeight: validator.delegatorWeight ?? '0',
      ...(validator.uptime === undefined ? {} : { uptime: Number(validator.uptime) }),
      ...(validator.connected === undefined ? {} : { connected: validator.connected }),
    };
  }

  private async call(upstream: string, nodeId: string, path: string, method: string, params: object, signal: AbortSignal): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${upstream.replace(/\/+$/, '')}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: nodeRpcAuthorization(this.options.rpcKey, nodeId) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw new ChainReadError(`the node did not answer within ${this.options.timeoutMs} ms`);
      throw new ChainReadError(`the node could not be reached (${causeOf(error)})`);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      if (signal.aborted) throw new ChainReadError(`the node did not answer within ${this.options.timeoutMs} ms`);
      throw new ChainReadError(`the node answered ${method} with HTTP ${response.status} and no JSON`);
    }
    const envelope = z.object({ result: z.unknown().optional(), error: z.object({ message: z.string() }).loose().optional() }).safeParse(body);
    if (!envelope.success) throw new ChainReadError(`the node's answer to ${method} is not JSON-RPC`);
    if (envelope.data.error) throw new ChainReadError(`the node answered ${method} with an error: ${envelope.data.error.message.slice(0, 200)}`);
    if (!response.ok) throw new ChainReadError(`the node answered ${method} with HTTP ${response.status}`);
    return envelope.data.result;
  }
}

function parse<S extends z.ZodType>(schema: S, value: unknown, method: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ChainReadError(`the node's answer to ${method} is malformed: ${z.prettifyError(parsed.error).slice(0, 300)}`);
  return parsed.data;
}

// fetch says "fetch failed" and puts the reason (ECONNREFUSED, ...) in `cause` (or in each error
// of an AggregateError there); the node's internal address stays out of the message. Not
// `instanceof Error`: fetch's errors may come from another realm (test environments).
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; errors?: Array<{ code?: unknown }> } } | null)?.cause;
  const code = cause?.code ?? cause?.errors?.[0]?.code;
  return typeof code === 'string' ? code : 'network error';
}
