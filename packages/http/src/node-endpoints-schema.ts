import { z } from 'zod';

// The `endpoints` of node and validator records (`@cloud/chains` nodeEndpoints), for the nodes'
// and the staking service's OpenAPI documents alike.

const interfaceUrls = {
  jsonRpc: z.string().meta({ description: 'JSON-RPC (POST)', example: 'https://127.0.0.1:9332/' }),
  rest: z.string().optional().meta({ description: 'REST (GET …/rest/…), Bitcoin-family nodes', example: 'https://127.0.0.1:9332/rest/' }),
  webSocket: z.string().optional().meta({ description: 'JSON-RPC over WebSocket, eth nodes', example: 'wss://127.0.0.1:8545/' }),
  management: z.string().optional().meta({ description: 'management API (/status, /logs), validators', example: 'https://127.0.0.1:8080/' }),
};

export const nodeEndpointsSchema = z
  .object({
    ...interfaceUrls,
    plain: z
      .object(interfaceUrls)
      .optional()
      .meta({ description: 'the same in plain HTTP, answered to loopback callers only (litecoin-cli, bitcoin-cli); absent where not served' }),
  })
  .meta({
    id: 'NodeEndpoints',
    description:
      "where to call the node, as pasted into any client: with a Basic credential (routed by its user name), or with a URL token inserted as the first path segment (https://127.0.0.1:8545/<token>); a jwt node's are at its own name",
  });
