import { isAvalancheNodeId } from '@cloud/chains';
import type { JsonRpcApi } from './json-rpc';
import { INVALID_PARAMS, JsonRpcError, namedParams } from './json-rpc';
import type { AvalancheNode } from './node';
import { gorillaUnknownMethod } from './node';
import type { ValidatorRegistration } from './validator-registry';

function invalid(message: string): JsonRpcError {
  return new JsonRpcError(INVALID_PARAMS, message);
}

/** A non-negative integer given as a JSON number or a decimal string (which can pass 2^53). */
function integer(name: string, value: unknown): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  throw invalid(`${name} must be a non-negative integer (a number or a decimal string), got ${JSON.stringify(value)}`);
}

function unixSeconds(name: string, value: unknown): number {
  const seconds = integer(name, value);
  if (seconds > BigInt(Number.MAX_SAFE_INTEGER)) throw invalid(`${name} is out of range: ${seconds}`);
  return Number(seconds);
}

/** Checks `dev.registerValidator`'s params: `{nodeID, startTime, endTime, weight, delegatorWeight?}`. */
export function parseRegistration(params: Record<string, unknown>): ValidatorRegistration {
  const { nodeID } = params;
  if (typeof nodeID !== 'string' || !isAvalancheNodeId(nodeID))
    throw invalid(`nodeID must be a NodeID (NodeID-<CB58 of 20 bytes>), got ${JSON.stringify(nodeID)}`);
  const startTime = unixSeconds('startTime', params.startTime);
  const endTime = unixSeconds('endTime', params.endTime);
  if (endTime <= startTime) throw invalid(`endTime (${endTime}) must be after startTime (${startTime})`);
  const weight = integer('weight', params.weight);
  if (weight === 0n) throw invalid('weight must be a positive integer of nAVAX');
  const delegatorWeight = params.delegatorWeight === undefined ? 0n : integer('delegatorWeight', params.delegatorWeight);
  return { nodeID, startTime, endTime, weight: weight.toString(), delegatorWeight: delegatorWeight.toString() };
}

/**
 * `/ext/dev`: what only the dev chain has. `dev.registerValidator` stands for an accepted
 * AddPermissionlessValidatorTx: the validator joins the set and the P-chain gains a block.
 */
export function devApi(node: AvalancheNode): JsonRpcApi {
  return {
    methods: {
      'dev.registerValidator': (params) => {
        const validator = node.registry.register(parseRegistration(namedParams(params)));
        node.log(
          `Registered validator ${validator.nodeID} txID=${validator.txID} start=${validator.startTime} end=${validator.endTime} weight=${validator.weight} (P-chain height ${node.registry.height})`,
        );
        return { txID: validator.txID };
      },
    },
    unknownMethod: gorillaUnknownMethod,
  };
}
