import { IMAGES, isImageId, type ImageDefinition } from '@cloud/chains';

/**
 * The proxy's listeners: one per chain port of the runtime contract ("Ports and addresses"), and
 * the management port every node is served on. A node answers only on its own chain's port and
 * on the management port; any other port answers 404.
 */
export type ListenerName = 'btc' | 'btctestnet' | 'ltc' | 'eth' | 'avalanche' | 'management';

export type Family = ImageDefinition['family'];

export interface ImageInterfaces {
  family: Family;
  /** The listener its JSON-RPC (and REST, and WebSocket) is served on. */
  listener: Exclude<ListenerName, 'management'>;
  /** The node software's REST interface (`GET /rest/...`). */
  rest: boolean;
  /** JSON-RPC over WebSocket on the same port. */
  webSocket: boolean;
}

/** The runtime contract's port of each listener (PROXY_<NAME>_PORT may move the listener itself). */
export const CONTRACT_PORTS: Readonly<Record<ListenerName, number>> = { btc: 8332, btctestnet: 18332, ltc: 9332, eth: 8545, avalanche: 9650, management: 8080 };

/** The listener of each contract port an image names. */
const LISTENER_OF_CONTRACT_PORT: Readonly<Record<number, ImageInterfaces['listener']>> = Object.fromEntries(
  Object.entries(CONTRACT_PORTS)
    .filter(([listener]) => listener !== 'management')
    .map(([listener, port]) => [port, listener as ImageInterfaces['listener']]),
);

/** How the proxy serves an image, from the shared catalogue; undefined for an image it does not know. */
export function interfacesOf(image: string): ImageInterfaces | undefined {
  if (!isImageId(image)) return undefined;
  const { family, ports } = IMAGES[image] as ImageDefinition;
  const listener = LISTENER_OF_CONTRACT_PORT[ports.jsonRpc];
  if (!listener) return undefined;
  return { family, listener, rest: ports.rest !== undefined, webSocket: ports.webSocket !== undefined };
}
