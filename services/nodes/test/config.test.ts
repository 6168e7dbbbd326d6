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
    });
  });

  it('stops on bad values, naming each variable', () => {
    let thrown: unknown;
    try {
      loadNodesConfig({ NODES_PORT: '99999', NODE_DRIVER: 'docker', NODE_DOMAIN: 'Nodes_Example', MAX_NODES_PER_USER: '0', ACCOUNTS_URL: 'accounts' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).problems.map((p) => p.split(':')[0]).sort()).toEqual(['ACCOUNTS_URL', 'MAX_NODES_PER_USER', 'NODES_PORT', 'NODE_DOMAIN', 'NODE_DRIVER']);
  });

  it('runs the node software the environment names, and reports its version', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nodes-config-'));
    try {
      const fakeLitecoind = path.join(dir, 'litecoind');
      writeFileSync(fakeLitecoind, '#!/bin/sh\necho "Litecoin Core version v9.8.7-gabcdef"\n', { mode: 0o755 });
      const config = loadNodesConfig({ DATA_DIR: dir, LITECOIND_PATH: fakeLitecoind });
      const driver = openNodeDriver(config, createLogger({ service: 'test', level: 'silent' }));
      const chains = await driver.chains();
      expect(chains.find((option) => option.image === 'ltc')).toEqual({ image: 'ltc', chain: 'ltc', network: 'mainnet', software: 'litecoin-core-9.8.7' });
      await driver.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
