/**
 * The node images a user can ask for (`POST /users/me/nodes {image}`), and what each one is: its
 * chain, its network and the ports the node-proxy serves it on (runtime contract, "Ports and
 * addresses"). Which software runs an image is the driver's business (`NodeDriver.chains`).
 */
export const IMAGES = {
  btc: { chain: 'btc', network: 'mainnet', family: 'bitcoin', ports: { jsonRpc: 8332, rest: 8332 } },
  bch: { chain: 'bch', network: 'mainnet', family: 'bitcoin', ports: { jsonRpc: 8332, rest: 8332 } },
  ltc: { chain: 'ltc', network: 'mainnet', family: 'bitcoin', ports: { jsonRpc: 9332, rest: 9332 } },
  btctestnet: { chain: 'btc', network: 'testnet', family: 'bitcoin', ports: { jsonRpc: 18332, rest: 18332 } },
  bchtestnet: { chain: 'bch', network: 'testnet', family: 'bitcoin', ports: { jsonRpc: 18332, rest: 18332 } },
  eth: { chain: 'eth', network: 'mainnet', family: 'ethereum', ports: { jsonRpc: 8545, webSocket: 8545 } },
} as const satisfies Record<string, ImageDefinition>;

export interface ImageDefinition {
  chain: 'btc' | 'bch' | 'ltc' | 'eth';
  network: 'mainnet' | 'testnet';
  /** Which JSON-RPC dialect the node speaks: Bitcoin Core's, or Ethereum's. */
  family: 'bitcoin' | 'ethereum';
  /** Ports of the node's address at the node-proxy, by interface. */
  ports: { jsonRpc: number; rest?: number; webSocket?: number };
}

export type ImageId = keyof typeof IMAGES;

export const IMAGE_IDS = Object.keys(IMAGES) as ImageId[];

export function isImageId(value: string): value is ImageId {
  return Object.hasOwn(IMAGES, value);
}
