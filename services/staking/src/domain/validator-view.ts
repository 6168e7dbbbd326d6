import { IMAGES } from '@cloud/chains';
import type { Registration } from './registration';
import type { NodeState, ValidatorRecord } from './validator';

/** The node-proxy's management port (runtime contract): `/status`, `/logs` of every node. */
export const MANAGEMENT_PORT = 8080;

/** A validator as the API shows it; `nodePass` only in the answer that created it. */
export interface ValidatorView {
  nodeId: string;
  chainNodeId: string;
  chain: string;
  network: string;
  image: string;
  state: NodeState;
  stateReason: string | null;
  address: string;
  ports: { jsonRpc: number; management: number };
  nodeUser: string;
  nodePass?: string;
  createdAt: string;
  registration: Registration;
}

export function toValidatorView(validator: ValidatorRecord, registration: Registration, nodeDomain: string, nodePass?: string): ValidatorView {
  return {
    nodeId: validator.id,
    chainNodeId: validator.chainNodeId,
    chain: validator.chain,
    network: validator.network,
    image: validator.image,
    state: validator.nodeState,
    stateReason: validator.nodeStateReason,
    address: `${validator.id}.${nodeDomain}`,
    ports: { jsonRpc: IMAGES[validator.image].ports.jsonRpc, management: MANAGEMENT_PORT },
    nodeUser: validator.nodeUser,
    ...(nodePass === undefined ? {} : { nodePass }),
    createdAt: validator.createdAt.toISOString(),
    registration,
  };
}
