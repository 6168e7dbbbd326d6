/**
 * Bounds the node-proxy applies and the nodes service checks owners' rules against: one default,
 * so the two services agree when the operator sets neither.
 */

/**
 * The largest answer the proxy passes on from a node (PROXY_MAX_ANSWER_BYTES; the nodes service's
 * NODE_MAX_ANSWER_BYTES). 16 MiB holds a full Ethereum block with its transactions many times
 * over; what it stops is a call a few hundred bytes long (an `eth_call` with a state override, a
 * wide `eth_getLogs`) making the node and the proxy produce and carry megabytes.
 */
export const DEFAULT_MAX_ANSWER_BYTES = 16 * 1024 * 1024;
