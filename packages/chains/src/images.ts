/**
 * Every node image the platform runs, and what each one is: its chain, its network and the ports
 * the node-proxy serves it on (runtime contract, "Ports and addresses"). Users ask for `node`
 * images themselves (`POST /users/me/nodes {image}`); `validator` images are made only by the
 * staking service, for a validator it creates. Which software runs an image is the driver's
 * business (`NodeDriver.chains`).
 */
export const IMAGES = {
  btc: { chain: 'btc', network: 'mainnet', family: 'bitcoin', purpose: 'node', ports: { jsonRpc: 8332, rest: 8332 } },
  bch: { chain: 'bch', network: 'mainnet', family: 'bitcoin', purpose: 'node', ports: { jsonRpc: 8332, rest: 8332 } },
  ltc: { chain: 'ltc', network: 'mainnet', family: 'bitcoin', purpose: 'node', ports: { jsonRpc: 9332, rest: 9332 } },
  btctestnet: { chain: 'btc', network: 'testnet', family: 'bitcoin', purpose: 'node', ports: { jsonRpc: 18332, rest: 18332 } },
  bchtestnet: { chain: 'bch', network: 'testnet', family: 'bitcoin', purpose: 'node', ports: { jsonRpc: 18332, rest: 18332 } },
  eth: { chain: 'eth', network: 'mainnet', family: 'ethereum', purpose: 'node', ports: { jsonRpc: 8545, webSocket: 8545 } },
  avalanche: { chain: 'avalanche', network: 'mainnet', family: 'avalanche', purpose: 'validator', ports: { jsonRpc: 9650 } },
  avalanchefuji: { chain: 'avalanche', network: 'fuji', family: 'avalanche', purpose: 'validator', ports: { jsonRpc: 9650 } },
} as const satisfies Record<string, ImageDefinition>;

export interface ImageDefinition {
  chain: 'btc' | 'bch' | 'ltc' | 'eth' | 'avalanche';
  network: 'mainnet' | 'testnet' | 'fuji';
  /**
   * Which JSON-RPC dialect the node speaks: Bitcoin Core's, Ethereum's, or avalanchego's (JSON-RPC
   * 2.0 under `/ext/...` paths, with an Ethereum-style C-chain at `/ext/bc/C/rpc`).
   */
  family: 'bitcoin' | 'ethereum' | 'avalanche';
  /** `node`: a user creates it through the nodes API; `validator`: only the staking service does. */
  purpose: 'node' | 'validator';
  /** Ports of the node's address at the node-proxy, by interface. */
  ports: { jsonRpc: number; rest?: number; webSocket?: number };
}

export type ImageId = keyof typeof IMAGES;

export const IMAGE_IDS = Object.keys(IMAGES) as ImageId[];

export type UserImageId = { [K in ImageId]: (typeof IMAGES)[K]['purpose'] extends 'node' ? K : never }[ImageId];
export type ValidatorImageId = Exclude<ImageId, UserImageId>;

/** The images `POST /users/me/nodes` takes. */
export const USER_IMAGE_IDS = IMAGE_IDS.filter((image) => IMAGES[image].purpose === 'node') as UserImageId[];

/** The images of validator nodes, which the staking service asks for. */
export const VALIDATOR_IMAGE_IDS = IMAGE_IDS.filter((image) => IMAGES[image].purpose === 'validator') as ValidatorImageId[];

export function isImageId(value: string): value is ImageId {
  return Object.hasOwn(IMAGES, value);
}

/** The validator image of a staking chain's network (`avalanche`, `fuji` → `avalanchefuji`); undefined for none. */
export function validatorImage(chain: string, network: string): ValidatorImageId | undefined {
  return VALIDATOR_IMAGE_IDS.find((image) => IMAGES[image].chain === chain && IMAGES[image].network === network);
}
