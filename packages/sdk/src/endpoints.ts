/** The ports a node or validator has at the node-proxy, as the nodes and staking APIs give them. */
export interface EndpointPorts {
  jsonRpc: number;
  rest?: number;
  webSocket?: number;
  management?: number;
}

/** A node's interfaces as the node-proxy serves them: its address with each port it has. */
export interface NodeEndpoints {
  jsonRpc: string;
  rest?: string;
  webSocket?: string;
  management?: string;
}

/**
 * The URLs of a node's interfaces at its own address (the runtime contract's hosted-node
 * addresses): JSON-RPC at `/`, REST under `/rest/`, WebSocket over wss, a validator's management API.
 */
export function nodeEndpoints(address: string, ports: EndpointPorts): NodeEndpoints {
  return {
    jsonRpc: `https://${address}:${ports.jsonRpc}/`,
    ...(ports.rest ? { rest: `https://${address}:${ports.rest}/rest/` } : {}),
    ...(ports.webSocket ? { webSocket: `wss://${address}:${ports.webSocket}/` } : {}),
    ...(ports.management ? { management: `https://${address}:${ports.management}/` } : {}),
  };
}
