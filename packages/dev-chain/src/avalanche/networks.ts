/** The networks avalanchego's `--network-id` names, with what the dev chain answers for each. */
export const AVALANCHE_NETWORKS = {
  mainnet: { networkId: 1, cChainId: 0xa86a },
  fuji: { networkId: 5, cChainId: 0xa869 },
  local: { networkId: 12345, cChainId: 0xa868 },
} as const;

export type AvalancheNetwork = keyof typeof AVALANCHE_NETWORKS;

/** `--network-id` takes a name or a number, as avalanchego's does (`testnet` is its other name for fuji). */
export function parseNetwork(value: string): AvalancheNetwork {
  const name = value === 'testnet' ? 'fuji' : value;
  for (const [network, { networkId }] of Object.entries(AVALANCHE_NETWORKS)) {
    if (name === network || name === String(networkId)) return network as AvalancheNetwork;
  }
  throw new Error(`Invalid value for --network-id: ${value} (expected mainnet, fuji or local)`);
}
