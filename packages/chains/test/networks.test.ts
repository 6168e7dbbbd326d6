import { IMAGES, IMAGE_IDS, networkLabel, networkWord } from '../src';

describe('network labels', () => {
  it('name a real network by its chain and network', () => {
    expect(networkLabel({ chain: 'ltc', network: 'mainnet', dev: false })).toBe('ltc mainnet');
    expect(networkLabel({ chain: 'avalanche', network: 'fuji', dev: false, image: 'avalanchefuji' })).toBe('avalanche fuji');
    expect(networkWord({ chain: 'btc', network: 'testnet', dev: false })).toBe('testnet');
  });

  it('say dev chain, with the word of what the local driver runs, and never the image network on a dev chain', () => {
    expect(networkLabel({ chain: 'ltc', network: 'mainnet', dev: true, image: 'ltc' })).toBe('ltc dev chain (regtest)');
    expect(networkLabel({ chain: 'bch', network: 'testnet', dev: true, image: 'bchtestnet' })).toBe('bch dev chain (regtest)');
    expect(networkLabel({ chain: 'eth', network: 'mainnet', dev: true, image: 'eth' })).toBe('eth dev chain (anvil)');
    expect(networkLabel({ chain: 'avalanche', network: 'fuji', dev: true, image: 'avalanchefuji' })).toBe('avalanche dev chain (simulated P-chain)');
    expect(networkWord({ chain: 'ltc', network: 'mainnet', dev: true, image: 'ltc' })).toBe('dev chain (regtest)');
    for (const image of IMAGE_IDS) {
      const { chain, network } = IMAGES[image];
      expect(networkLabel({ chain, network, dev: true, image })).not.toMatch(new RegExp(`\\b${network}\\b`));
    }
  });

  it('take the dev chain word given, and say dev chain alone for an image it does not know', () => {
    expect(networkLabel({ chain: 'ltc', network: 'mainnet', dev: true, devNetwork: 'signet' })).toBe('ltc dev chain (signet)');
    expect(networkLabel({ chain: 'xyz', network: 'mainnet', dev: true, image: 'xyz' })).toBe('xyz dev chain');
  });

  it('say so when whether it is a dev chain is not known yet', () => {
    expect(networkLabel({ chain: 'avalanche', network: 'fuji', dev: null, image: 'avalanchefuji' })).toBe('avalanche fuji or a dev chain (not known yet)');
  });
});
