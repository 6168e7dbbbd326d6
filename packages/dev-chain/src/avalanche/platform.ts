import { isAvalancheNodeId } from '@cloud/chains';
import type { JsonRpcApi } from './json-rpc';
import { INVALID_PARAMS, JsonRpcError, namedParams } from './json-rpc';
import type { AvalancheNode } from './node';
import { gorillaUnknownMethod } from './node';
import type { Validator } from './validator-registry';

const PRIMARY_NETWORK_ID = '11111111111111111111111111111111LpoYY';
const SECONDS_A_YEAR = 365n * 24n * 3600n;
/** The primary network's minimum delegation fee, 2%, in avalanchego's 4-decimal form. */
const DELEGATION_FEE = '2.0000';
/** Registrations carry no reward addresses: an owner with none. */
const NO_OWNER = { locktime: '0', threshold: '0', addresses: [] };

/** A stand-in for avalanchego's reward curve (which depends on supply and duration): a flat 8% a year, prorated. */
function potentialReward(validator: Validator): string {
  return ((BigInt(validator.weight) * 8n * BigInt(validator.endTime - validator.startTime)) / (100n * SECONDS_A_YEAR)).toString();
}

/**
 * A validator as getCurrentValidators shows it (avalanchego's `PermissionlessValidator`, numbers as
 * strings). Only this node is connected, and it counts as up only once its validation has started.
 * The delegator weight is shown as one delegator.
 */
function validatorView(validator: Validator, node: AvalancheNode, now: number) {
  const self = validator.nodeID === node.identity.nodeId;
  const delegated = BigInt(validator.delegatorWeight) > 0n;
  return {
    txID: validator.txID,
    startTime: String(validator.startTime),
    endTime: String(validator.endTime),
    weight: validator.weight,
    nodeID: validator.nodeID,
    validationRewardOwner: NO_OWNER,
    delegationRewardOwner: NO_OWNER,
    potentialReward: potentialReward(validator),
    delegationFee: DELEGATION_FEE,
    uptime: self && validator.startTime <= now ? '100.0000' : '0.0000',
    connected: self,
    delegatorCount: delegated ? '1' : '0',
    delegatorWeight: validator.delegatorWeight,
    delegators: null,
  };
}

function parseNodeIds(value: unknown): Set<string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new JsonRpcError(INVALID_PARAMS, 'nodeIDs must be an array of NodeIDs');
  for (const nodeId of value) {
    if (typeof nodeId !== 'string' || !isAvalancheNodeId(nodeId)) throw new JsonRpcError(INVALID_PARAMS, `couldn't parse nodeID ${JSON.stringify(nodeId)}`);
  }
  return new Set(value as string[]);
}

/** `/ext/bc/P`: the P-chain's height and its validator set (the primary network's; there are no subnets). */
export function platformApi(node: AvalancheNode): JsonRpcApi {
  return {
    methods: {
      'platform.getHeight': () => ({ height: String(node.registry.height) }),
      'platform.getCurrentValidators': (params) => {
        const { nodeIDs, subnetID } = namedParams(params);
        const wanted = parseNodeIds(nodeIDs);
        if (subnetID !== undefined && subnetID !== null && subnetID !== PRIMARY_NETWORK_ID) return { validators: [] };
        const now = node.nowSeconds();
        const validators = node.registry
          .current(now)
          .filter((validator) => !wanted || wanted.has(validator.nodeID))
          .sort((a, b) => a.startTime - b.startTime || a.nodeID.localeCompare(b.nodeID));
        return { validators: validators.map((validator) => validatorView(validator, node, now)) };
      },
    },
    unknownMethod: gorillaUnknownMethod,
  };
}
