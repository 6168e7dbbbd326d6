import { IMAGES, isImageId, type ImageDefinition } from './images';

/**
 * The network a node is on, in words: the one definition every screen uses (the nodes and
 * staking APIs' `networkLabel`, which the CLI and the console print). A node on its image's real
 * network says its chain and network (`ltc mainnet`, `avalanche fuji`); a node on a private dev
 * chain says so, with the dev chain's own word, and never its image's network (`ltc dev chain
 * (regtest)`): its coins are worth nothing and it reaches no real network.
 */

/**
 * What the local driver runs as a dev chain, by family (services/nodes/src/drivers/local): a
 * Bitcoin-family daemon (or the dev chain in its place) with `-regtest`, anvil for eth, and the
 * dev chain's Avalanche mode, which answers as avalanchego does but keeps its own P-chain.
 */
export const DEV_NETWORKS: Record<ImageDefinition['family'], string> = {
  bitcoin: 'regtest',
  ethereum: 'anvil',
  avalanche: 'simulated P-chain',
};

export interface NetworkOf {
  chain: string;
  /** The image's network (`mainnet`, `testnet`, `fuji`), as the API's `network` says. */
  network: string;
  /** On a private dev chain; null or undefined: not known yet (a validator whose node is not announced yet). */
  dev: boolean | null | undefined;
  /** The dev chain's own word (`regtest`, `anvil`); default: the word of the image's family, else `dev chain` alone. */
  devNetwork?: string;
  /** The image, to find the dev chain's word when `devNetwork` is not given. */
  image?: string;
}

/** The dev chain's word of an image (`ltc` → `regtest`, `eth` → `anvil`); undefined for an image not known here. */
export function devNetworkOf(image: string): string | undefined {
  return isImageId(image) ? DEV_NETWORKS[IMAGES[image].family] : undefined;
}

/** `ltc mainnet`, `avalanche fuji`; on a dev chain `ltc dev chain (regtest)`, never the image's network. */
export function networkLabel(of: NetworkOf): string {
  return `${of.chain} ${networkWord(of)}`;
}

/** The label without the chain, for a column beside it: `mainnet`, `dev chain (regtest)`. */
export function networkWord(of: NetworkOf): string {
  if (of.dev === true) {
    const word = of.devNetwork ?? (of.image === undefined ? undefined : devNetworkOf(of.image));
    return word ? `dev chain (${word})` : 'dev chain';
  }
  if (of.dev === false) return of.network;
  return `${of.network} or a dev chain (not known yet)`;
}
