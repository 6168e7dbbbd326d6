import { rmSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import type { RpcAuth } from './auth';
import { isAuthorized, parseRpcAuth, writeCookie } from './auth';
import { Chain } from './chain';
import { createExecute } from './methods';
import type { ChainName } from './params';
import { CHAIN_PARAMS } from './params';
import { handleRest } from './rest';
import { handleRpc } from './rpc';
import { createRpcServer, listen } from './server';
import { BlockStore, regtestDir } from './store';
import { DEV_CHAIN_NAME, DEV_CHAIN_VERSION } from './version';

export { makeRpcAuth, rpcAuthHash } from './auth';
export { AVALANCHE_NETWORKS, parseAvalancheArguments, startAvalancheDevChain } from './avalanche';
export type { AvalancheCommand, AvalancheDevChain, AvalancheDevChainOptions, AvalancheNetwork } from './avalanche';
export { parseArguments, usage } from './args';
export type { Command } from './args';
export { CHAINS } from './params';
export type { ChainName } from './params';
export { DEV_CHAIN_NAME, DEV_CHAIN_VERSION, devChainSubversion } from './version';

export interface DevChainOptions {
  chain: ChainName;
  /** Created if missing; the chain lives in `<datadir>/regtest/`. */
  datadir: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** `user:salt$hash` entries; none means cookie authentication (`<datadir>/regtest/.cookie`). */
  rpcauth: string[];
  rest: boolean;
  /** Mine a block every this many seconds; 0 mines only when asked. */
  blockIntervalSeconds: number;
  /** Receives one line per event (start-up, new tip, shutdown), without a timestamp. */
  logger?: (line: string) => void;
}

export interface DevChain {
  url: string;
  port: number;
  /** Closes the server and the block store; safe to call more than once. */
  stop(): Promise<void>;
  /** Settles once the node has stopped, whether by stop() or by the stop RPC. */
  stopped: Promise<void>;
}

/** A chain loaded from its datadir, with what serving it needs. */
interface LoadedChain {
  chain: Chain;
  store: BlockStore;
  entries: RpcAuth[];
  log: (line: string) => void;
  /** Closes the store and removes the cookie. */
  release(): void;
}

/** Serves RPC (and REST) for a loaded chain; runs the mining timer; stops on stop() or the stop RPC. */
async function serve(node: LoadedChain, options: DevChainOptions): Promise<DevChain> {
  const { chain, store, log } = node;
  let stopRequested = false;
  const execute = createExecute({
    chain,
    startedAt: Date.now(),
    sizeOnDisk: () => store.sizeOnDisk,
    requestStop: () => {
      stopRequested = true;
    },
  });
  const server = createRpcServer({
    isAuthorized: (header) => isAuthorized(header, node.entries),
    rpc: (body) => {
      const reply = handleRpc(body, execute);
      return stopRequested ? { ...reply, afterSent: () => void stop() } : reply;
    },
    ...(options.rest && { rest: (path: string, query: URLSearchParams) => handleRest(chain, store.sizeOnDisk, path, query) }),
  });
  const port = await listen(server, options.port, options.host);
  log(`Binding RPC on address ${options.host} port ${port}${options.rest ? ' (REST enabled)' : ''}`);

  const timer =
    options.blockIntervalSeconds > 0
      ? setInterval(() => {
          try {
            chain.mine(1);
          } catch (error) {
            log(`Mining failed: ${error instanceof Error ? error.message : String(error)}`);
          }
        }, options.blockIntervalSeconds * 1000)
      : undefined;

  let markStopped: () => void = () => undefined;
  const stopped = new Promise<void>((settle) => (markStopped = settle));
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      log('Shutdown: In progress...');
      clearInterval(timer);
      // Like bitcoind, shutting down cuts open connections rather than waiting for idle clients.
      await new Promise<void>((closed) => {
        server.close(() => closed());
        server.closeAllConnections();
      });
      node.release();
      log('Shutdown: done');
      markStopped();
    })());

  const host = isIP(options.host) === 6 ? `[${options.host}]` : options.host;
  return { url: `http://${host}:${port}`, port, stop, stopped };
}

/** Starts a node: loads (or creates) the chain in the datadir, then serves RPC (and REST) on host:port. */
export async function startDevChain(options: DevChainOptions): Promise<DevChain> {
  const log = options.logger ?? (() => undefined);
  const entries = options.rpcauth.map(parseRpcAuth);
  log(`${DEV_CHAIN_NAME} version v${DEV_CHAIN_VERSION} (chain ${options.chain})`);
  log(`Using data directory ${resolve(regtestDir(options.datadir))}`);
  const { store, blocks, droppedPartialLine } = BlockStore.open(options.datadir);
  let cookiePath: string | undefined;
  const release = () => {
    store.close();
    if (cookiePath) rmSync(cookiePath, { force: true });
  };
  try {
    if (droppedPartialLine) log(`Dropped the partial last line of ${store.path}`);
    const chain = new Chain(CHAIN_PARAMS[options.chain], blocks, (entry) => {
      store.append(entry);
      log(`UpdateTip: new best=${entry.hash} height=${entry.height}`);
    });
    log(`Loaded best chain: hashBestChain=${chain.tip.hash} height=${chain.height}`);
    if (entries.length === 0) {
      const cookie = writeCookie(regtestDir(options.datadir));
      cookiePath = cookie.path;
      entries.push(cookie.auth);
      log(`Generated RPC authentication cookie ${cookiePath}`);
    }
    return await serve({ chain, store, entries, log, release }, options);
  } catch (error) {
    release();
    throw error;
  }
}
