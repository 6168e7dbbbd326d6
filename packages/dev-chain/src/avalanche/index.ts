import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { listen } from '../server';
import { DEV_CHAIN_NAME, DEV_CHAIN_VERSION } from '../version';
import { createAvalancheServer } from './http-server';
import type { AvalancheNetwork } from './networks';
import { AVALANCHE_NETWORKS } from './networks';
import type { AvalancheNode } from './node';
import { loadStakingIdentity } from './staking-identity';
import { ValidatorRegistry } from './validator-registry';

export { parseAvalancheArguments } from './args';
export type { AvalancheCommand } from './args';
export { AVALANCHE_NETWORKS } from './networks';
export type { AvalancheNetwork } from './networks';

export interface AvalancheDevChainOptions {
  network: AvalancheNetwork;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** avalanchego's staking certificate and key (PEM); the certificate's NodeID is the node's. */
  stakingCertFile: string;
  stakingKeyFile: string;
  /** Created if missing; holds `validators.json`. */
  dataDir: string;
  /** Receives one line per event (start-up, registration, shutdown), without a timestamp. */
  logger?: (line: string) => void;
}

export interface AvalancheDevChain {
  url: string;
  port: number;
  nodeId: string;
  /** Closes the server; safe to call more than once. */
  stop(): Promise<void>;
  /** Settles once the node has stopped. */
  stopped: Promise<void>;
}

/**
 * Starts a stand-in for avalanchego: checks the staking files, opens the validator registry in the
 * data directory, then serves the HTTP API on host:port. Throws, before listening, on a bad file.
 */
export async function startAvalancheDevChain(options: AvalancheDevChainOptions): Promise<AvalancheDevChain> {
  const log = options.logger ?? (() => undefined);
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  log(`${DEV_CHAIN_NAME} version v${DEV_CHAIN_VERSION} (chain avalanche)`);
  const identity = loadStakingIdentity(options.stakingCertFile, options.stakingKeyFile);
  log(`Using data directory ${resolve(options.dataDir)}`);
  const registry = ValidatorRegistry.open(options.dataDir, nowSeconds());
  const node: AvalancheNode = { identity, network: options.network, registry, nowSeconds, log };
  log(
    `NodeID ${identity.nodeId} on network ${options.network} (networkID ${AVALANCHE_NETWORKS[options.network].networkId}), P-chain height ${registry.height}`,
  );

  const server = createAvalancheServer(node);
  const port = await listen(server, options.port, options.host);
  log(`HTTP API server listening on address ${options.host} port ${port}`);

  let markStopped: () => void = () => undefined;
  const stopped = new Promise<void>((settle) => (markStopped = settle));
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      log('Shutdown: In progress...');
      await new Promise<void>((closed) => {
        server.close(() => closed());
        server.closeAllConnections();
      });
      log('Shutdown: done');
      markStopped();
    })());

  const host = isIP(options.host) === 6 ? `[${options.host}]` : options.host;
  return { url: `http://${host}:${port}`, port, nodeId: identity.nodeId, stop, stopped };
}
