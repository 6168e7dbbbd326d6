import path from 'node:path';
import type { Logger } from '@cloud/logging';
import { loadNodeRpcKey } from '@cloud/node-rpc-auth';
import type { NodesConfig } from '../config';
import type { NodeDriver } from './driver';
import { createLocalDriver } from './local';

/** The driver NODE_DRIVER names, configured from the environment. */
export function openNodeDriver(config: NodesConfig, logger: Logger): NodeDriver {
  if (config.NODE_DRIVER === 'kubernetes') {
    throw new Error('NODE_DRIVER=kubernetes: the Kubernetes driver is not part of this release yet; use NODE_DRIVER=local');
  }
  return createLocalDriver({
    rootDir: config.LOCAL_NODES_DIR ?? path.join(config.DATA_DIR, 'nodes'),
    secretKey: loadNodeRpcKey(config),
    logger: logger.child({ driver: 'local' }),
    blockIntervalSeconds: config.LOCAL_BLOCK_INTERVAL_SECONDS,
    ethChainId: config.LOCAL_ETH_CHAIN_ID,
    binaries: {
      ...(config.ANVIL_PATH ? { anvil: config.ANVIL_PATH } : {}),
      ...(config.LITECOIND_PATH ? { litecoind: config.LITECOIND_PATH } : {}),
      ...(config.BITCOIND_PATH ? { bitcoind: config.BITCOIND_PATH } : {}),
      ...(config.BCHN_BITCOIND_PATH ? { bchnBitcoind: config.BCHN_BITCOIND_PATH } : {}),
      ...(config.AVALANCHEGO_PATH ? { avalanchego: config.AVALANCHEGO_PATH } : {}),
    },
  });
}
