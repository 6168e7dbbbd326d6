import type { JsonRpcApi } from './json-rpc';
import { INVALID_PARAMS, JsonRpcError, namedParams } from './json-rpc';
import { AVALANCHE_NETWORKS } from './networks';
import type { AvalancheNode } from './node';
import { AVALANCHE_NODE_VERSION, gorillaUnknownMethod } from './node';

/** The chains `info.isBootstrapped` knows: the primary network's aliases and the P-chain's ID. */
const CHAINS = new Set(['P', 'X', 'C', '11111111111111111111111111111111LpoYY']);

/** `/ext/info`: avalanchego's Info API, the part a validator's operator uses. */
export function infoApi(node: AvalancheNode): JsonRpcApi {
  return {
    methods: {
      'info.getNodeID': () => ({
        nodeID: node.identity.nodeId,
        nodePOP: { publicKey: node.identity.blsPublicKey, proofOfPossession: node.identity.blsProofOfPossession },
      }),
      'info.isBootstrapped': (params) => {
        const { chain } = namedParams(params);
        if (typeof chain !== 'string' || chain === '') throw new JsonRpcError(INVALID_PARAMS, "argument 'chain' not given");
        if (!CHAINS.has(chain)) throw new Error(`there is no chain with alias/ID '${chain}'`);
        return { isBootstrapped: true };
      },
      'info.getNetworkID': () => ({ networkID: String(AVALANCHE_NETWORKS[node.network].networkId) }),
      'info.getNetworkName': () => ({ networkName: node.network }),
      'info.getNodeVersion': () => ({ version: AVALANCHE_NODE_VERSION, vmVersions: {} }),
    },
    unknownMethod: gorillaUnknownMethod,
  };
}
