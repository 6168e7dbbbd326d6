import path from 'node:path';
import type { Logger } from '@cloud/logging';
import { loadNodeRpcKey } from '@cloud/node-rpc-auth';
import { PEER_IMAGES, peersVariable, type NodesConfig } from '../config';
import type { NodeDriver } from '../domain/node-driver';
import { createKubernetesDriver, parseLabelSelector } from './kubernetes';
import { createLocalDriver } from './local';

/** The driver NODE_DRIVER names, configured from the environment. */
export function openNodeDriver(config: NodesConfig, logger: Logger): NodeDriver {
  if (config.NODE_DRIVER === 'kubernetes') {
    return createKubernetesDriver({
      namespace: config.KUBE_NAMESPACE,
      storageClass: config.KUBE_STORAGE_CLASS,
      proxyPodSelector: parseLabelSelector(config.KUBE_PROXY_POD_SELECTOR),
      stakingPodSelector: parseLabelSelector(config.KUBE_STAKING_POD_SELECTOR),
      streamsPodSelector: parseLabelSelector(config.KUBE_STREAMS_POD_SELECTOR),
      nodesPodSelector: parseLabelSelector(config.KUBE_NODES_POD_SELECTOR),
      platformNamespace: config.KUBE_PLATFORM_NAMESPACE,
      rpcAllowCidrs: config.KUBE_RPC_ALLOW_CIDRS,
      pvcDeleteGraceSeconds: config.KUBE_PVC_DELETE_GRACE_SECONDS,
      requestTimeoutMs: config.KUBE_REQUEST_TIMEOUT_MS,
      crashRestarts: config.KUBE_CRASH_RESTARTS,
      unschedulableSeconds: config.KUBE_UNSCHEDULABLE_SECONDS,
      secretKey: loadNodeRpcKey(config),
      logger,
    });
  }
  return createLocalDriver({
    rootDir: config.LOCAL_NODES_DIR ?? path.join(config.DATA_DIR, 'nodes'),
    secretKey: loadNodeRpcKey(config),
    logger: logger.child({ driver: 'local' }),
    blockIntervalSeconds: config.LOCAL_BLOCK_INTERVAL_SECONDS,
    ethChainId: config.LOCAL_ETH_CHAIN_ID,
    networks: config.LOCAL_NETWORKS,
    pruneMb: config.LOCAL_PRUNE_MB,
    peers: Object.fromEntries(PEER_IMAGES.flatMap((image) => (config[peersVariable(image)] ? [[image, config[peersVariable(image)]]] : []))),
    binaries: {
      ...(config.ANVIL_PATH ? { anvil: config.ANVIL_PATH } : {}),
      ...(config.LITECOIND_PATH ? { litecoind: config.LITECOIND_PATH } : {}),
      ...(config.BITCOIND_PATH ? { bitcoind: config.BITCOIND_PATH } : {}),
      ...(config.BCHN_BITCOIND_PATH ? { bchnBitcoind: config.BCHN_BITCOIND_PATH } : {}),
      ...(config.AVALANCHEGO_PATH ? { avalanchego: config.AVALANCHEGO_PATH } : {}),
    },
  });
}
