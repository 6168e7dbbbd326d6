import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '@cloud/config';
import { createLogger } from '@cloud/logging';
import { loadNodesConfig } from '../src';
import { openNodeDriver } from '../src/drivers/open-driver';

describe('nodes configuration', () => {
  it('has working defaults', () => {
    expect(loadNodesConfig({})).toMatchObject({
      NODES_PORT: 3002,
      NODES_HOST: '127.0.0.1',
      NODE_DRIVER: 'local',
      NODE_DOMAIN: 'nodes.localhost',
      ACCOUNTS_URL: 'http://127.0.0.1:3001',
      MAX_NODES_PER_USER: 5,
      NODE_LEASE_SECONDS: 15,
      LOCAL_NETWORKS: 'dev',
      LOCAL_PRUNE_MB: 10_000,
    });
    expect(loadNodesConfig({}).LTC_PEERS).toBeUndefined();
  });

  it('reads peers per image: a list of host:port, or none', () => {
    const config = loadNodesConfig({ LTC_PEERS: '127.0.0.1:19444, seed.example.org:9333,[::1]:9333', BTCTESTNET_PEERS: 'none' });
    expect(config.LTC_PEERS).toEqual(['127.0.0.1:19444', 'seed.example.org:9333', '[::1]:9333']);
    expect(config.BTCTESTNET_PEERS).toEqual([]);
  });

  it('stops on bad values, naming each variable', () => {
    let thrown: unknown;
    try {
      loadNodesConfig({
        NODES_PORT: '99999',
        NODE_DRIVER: 'docker',
        NODE_DOMAIN: 'Nodes_Example',
        MAX_NODES_PER_USER: '0',
        ACCOUNTS_URL: 'accounts',
        LOCAL_NETWORKS: 'mainnet',
        LOCAL_PRUNE_MB: '100',
        LTC_PEERS: '127.0.0.1',
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'ACCOUNTS_URL',
      'LOCAL_NETWORKS',
      'LOCAL_PRUNE_MB',
      'LTC_PEERS',
      'MAX_NODES_PER_USER',
      'NODES_PORT',
      'NODE_DOMAIN',
      'NODE_DRIVER',
    ]);
  });

  it('runs the node software the environment names, and reports its version', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nodes-config-'));
    try {
      const fakeLitecoind = path.join(dir, 'litecoind');
      writeFileSync(fakeLitecoind, '#!/bin/sh\necho "Litecoin Core version v9.8.7-gabcdef"\n', { mode: 0o755 });
      const chainsWith = async (env: Record<string, string>) => {
        const driver = openNodeDriver(
          loadNodesConfig({ DATA_DIR: dir, LITECOIND_PATH: fakeLitecoind, ...env }),
          createLogger({ service: 'test', level: 'silent' }),
        );
        const chains = await driver.chains();
        await driver.close();
        return Object.fromEntries(chains.map((option) => [option.image, option]));
      };
      const ltc = { image: 'ltc', chain: 'ltc', network: 'mainnet', software: 'litecoin-core-9.8.7' };
      // dev (the default): regtest, so it says dev; public: Litecoin mainnet, pruned unless LOCAL_PRUNE_MB=0.
      expect((await chainsWith({})).ltc).toEqual({ ...ltc, dev: true, pruned: false });
      const publicChains = await chainsWith({ LOCAL_NETWORKS: 'public' });
      expect(publicChains.ltc).toEqual({ ...ltc, dev: false, pruned: true });
      expect((await chainsWith({ LOCAL_NETWORKS: 'public', LOCAL_PRUNE_MB: '0' })).ltc).toEqual({ ...ltc, dev: false, pruned: false });
      // Without their real software, btc runs the dev chain and eth anvil: dev chains, whatever LOCAL_NETWORKS says.
      expect([publicChains.btc?.dev, publicChains.eth?.dev]).toEqual([true, true]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
