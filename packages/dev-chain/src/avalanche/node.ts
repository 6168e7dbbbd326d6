import { DEV_CHAIN_VERSION } from '../version';
import type { AvalancheNetwork } from './networks';
import type { StakingIdentity } from './staking-identity';
import type { ValidatorRegistry } from './validator-registry';

/** What the node reports as its software, in avalanchego's `<name>/<version>` form. */
export const AVALANCHE_NODE_VERSION = `cloud-dev-chain/${DEV_CHAIN_VERSION}`;

/** gorilla/rpc's words for a method an avalanchego API lacks. */
export function gorillaUnknownMethod(name: string): string {
  return `rpc: can't find method "${name}"`;
}

/** The running node, as its APIs see it. */
export interface AvalancheNode {
  identity: StakingIdentity;
  network: AvalancheNetwork;
  registry: ValidatorRegistry;
  nowSeconds(): number;
  log(line: string): void;
}
