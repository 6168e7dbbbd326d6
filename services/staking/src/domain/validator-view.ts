import { IMAGES, networkLabel, nodeEndpoints, type NodeEndpoints, type ProxyAddresses } from '@cloud/chains';
import type { Registration } from './registration';
import type { NodeState, ValidatorRecord } from '../data-access/validator-record';

/** The node-proxy's management port (runtime contract): `/status`, `/logs` of every node. */
export const MANAGEMENT_PORT = 8080;

/** A validator as the API shows it; `nodePass` only in the answer that created it. */
export interface ValidatorView {
  nodeId: string;
  chainNodeId: string;
  chain: string;
  network: string;
  /** Its node runs on a private dev chain; null: not known yet (the nodes service has not announced the node). */
  dev: boolean | null;
  /** The network in words (`@cloud/chains` networkLabel): `avalanche fuji`, `avalanche dev chain (simulated P-chain)`. */
  networkLabel: string;
  image: string;
  state: NodeState;
  stateReason: string | null;
  address: string;
  ports: { jsonRpc: number; management: number };
  /** Where to call it (`@cloud/chains` nodeEndpoints): routed by its Basic user name. */
  endpoints: NodeEndpoints;
  nodeUser: string;
  nodePass?: string;
  createdAt: string;
  registration: Registration;
}

export function toValidatorView(validator: ValidatorRecord, registration: Registration, addresses: ProxyAddresses, nodePass?: string): ValidatorView {
  const ports = { jsonRpc: IMAGES[validator.image].ports.jsonRpc, management: MANAGEMENT_PORT };
  return {
    nodeId: validator.id,
    chainNodeId: validator.chainNodeId,
    chain: validator.chain,
    network: validator.network,
    dev: validator.nodeDev,
    networkLabel: networkLabel({ chain: validator.chain, network: validator.network, dev: validator.nodeDev, image: validator.image }),
    image: validator.image,
    state: validator.nodeState,
    stateReason: validator.nodeStateReason,
    address: `${validator.id}.${addresses.nodeDomain}`,
    ports,
    endpoints: nodeEndpoints({ id: validator.id, ports, routedByCredential: true }, addresses),
    nodeUser: validator.nodeUser,
    ...(nodePass === undefined ? {} : { nodePass }),
    createdAt: validator.createdAt.toISOString(),
    registration,
  };
}
