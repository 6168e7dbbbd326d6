import { ConfigError } from '@cloud/config';
import { loadStakingConfig } from '../src';

describe('staking configuration', () => {
  it('has working defaults', () => {
    expect(loadStakingConfig({})).toMatchObject({
      STAKING_PORT: 3003,
      STAKING_HOST: '127.0.0.1',
      NODE_DOMAIN: 'nodes.localhost',
      ACCOUNTS_URL: 'http://127.0.0.1:3001',
      MAX_VALIDATORS_PER_USER: 5,
      STAKING_STATUS_CACHE_MS: 10_000,
      STAKING_NODE_TIMEOUT_MS: 3_000,
    });
    expect(loadStakingConfig({}).STAKING_KEY_ENCRYPTION_KEY).toBeUndefined();
  });

  it('stops on bad values, naming each variable', () => {
    let thrown: unknown;
    try {
      loadStakingConfig({
        STAKING_PORT: '70000',
        NODE_DOMAIN: 'Nodes_Example',
        MAX_VALIDATORS_PER_USER: '0',
        STAKING_STATUS_CACHE_MS: 'soon',
        STAKING_NODE_TIMEOUT_MS: '-1',
        STAKING_KEY_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64'),
        ACCOUNTS_URL: 'accounts',
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'ACCOUNTS_URL',
      'MAX_VALIDATORS_PER_USER',
      'NODE_DOMAIN',
      'STAKING_KEY_ENCRYPTION_KEY',
      'STAKING_NODE_TIMEOUT_MS',
      'STAKING_PORT',
      'STAKING_STATUS_CACHE_MS',
    ]);
    expect((thrown as ConfigError).message).toContain('STAKING_KEY_ENCRYPTION_KEY: must be the base64 of exactly 32 bytes');
  });

  it('takes the encryption key from the environment or from a file, not both', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(loadStakingConfig({ STAKING_KEY_ENCRYPTION_KEY: key }).STAKING_KEY_ENCRYPTION_KEY).toBe(key);
    expect(() => loadStakingConfig({ STAKING_KEY_ENCRYPTION_KEY: key, STAKING_KEY_ENCRYPTION_KEY_FILE: '/etc/staking.key' })).toThrow(
      'STAKING_KEY_ENCRYPTION_KEY: set it or STAKING_KEY_ENCRYPTION_KEY_FILE, not both',
    );
  });
});
