import type { JsonRpcApi } from './json-rpc';
import { AVALANCHE_NETWORKS } from './networks';
import type { AvalancheNode } from './node';
import { AVALANCHE_NODE_VERSION } from './node';

/** The C-chain's target block time. */
const BLOCK_SECONDS = 2;

/**
 * The C-chain's height grows with time, not with transactions (there are none): one block every
 * 2 s since the data directory was first used, so it survives restarts and never goes back.
 */
export function cChainHeight(node: AvalancheNode): number {
  return Math.max(0, Math.floor((node.nowSeconds() - node.registry.genesisTime) / BLOCK_SECONDS));
}

/** `/ext/bc/C/rpc`: the Ethereum JSON-RPC of the C-chain, as far as a node's operator probes it. */
export function cChainApi(node: AvalancheNode): JsonRpcApi {
  return {
    methods: {
      eth_chainId: () => `0x${AVALANCHE_NETWORKS[node.network].cChainId.toString(16)}`,
      eth_blockNumber: () => `0x${cChainHeight(node).toString(16)}`,
      web3_clientVersion: () => AVALANCHE_NODE_VERSION,
    },
    // go-ethereum's words, which the C-chain (coreth) keeps.
    unknownMethod: (name) => `the method ${name} does not exist/is not available`,
  };
}
