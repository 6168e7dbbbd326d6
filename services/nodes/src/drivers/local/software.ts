import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '@cloud/logging';
import { IMAGE_IDS, type ImageId } from '@cloud/chains';
import type { LocalBinaries } from './options';
import { softwareLabel } from './software-label';

/** Which program it is: decides its arguments, how it mines and how it is asked for its version. */
export type SoftwareKind = 'anvil' | 'litecoin-core' | 'bitcoin-core' | 'bitcoin-cash-node' | 'avalanchego' | 'dev-chain';

/** A program that runs nodes. */
export interface Software {
  kind: SoftwareKind;
  command: string;
  /** Arguments before the node's own: the dev chain's script, run by this Node.js. */
  baseArgs: string[];
  /** `<name>-<version>` as the program reports it; undefined when it would not say. */
  label: string | undefined;
}

/** The software that runs each image; an image missing here cannot run on this machine. */
export type SoftwareCatalog = Partial<Record<ImageId, Software>>;

const VERSION_TIMEOUT_MS = 10_000;

/**
 * Finds the program for each image and asks each for its version. Explicit paths win; bitcoin-family
 * and avalanche images without their real daemon run on the dev chain, which speaks the same RPC.
 */
export async function resolveSoftware(binaries: LocalBinaries, logger: Logger): Promise<SoftwareCatalog> {
  const devChainScript = resolveFile('@cloud/dev-chain/main');
  const [anvil, litecoind, bitcoind, bchn, avalanchego, devChain] = await Promise.all([
    identify('anvil', binaries.anvil ?? anvilFromPackage() ?? findOnPath('anvil'), [], logger),
    identify('litecoin-core', binaries.litecoind ?? findOnPath('litecoind'), [], logger),
    identify('bitcoin-core', binaries.bitcoind, [], logger),
    identify('bitcoin-cash-node', binaries.bchnBitcoind, [], logger),
    identify('avalanchego', binaries.avalanchego, [], logger),
    devChainScript ? identify('dev-chain', process.execPath, [devChainScript], logger) : undefined,
  ]);
  const catalog: SoftwareCatalog = {
    eth: anvil,
    ltc: litecoind ?? devChain,
    btc: bitcoind ?? devChain,
    btctestnet: bitcoind ?? devChain,
    bch: bchn ?? devChain,
    bchtestnet: bchn ?? devChain,
    avalanche: avalanchego ?? devChain,
    avalanchefuji: avalanchego ?? devChain,
  };
  const missing = IMAGE_IDS.filter((image) => !catalog[image]);
  if (missing.length > 0) logger.warn('no software on this machine runs some images', { images: missing });
  return catalog;
}

/** The first executable file called `name` on PATH. */
export function findOnPath(name: string, searchPath = process.env.PATH ?? ''): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false; // not there, or not executable
  }
}

/** The program, with its label read from what it prints for its version flag. */
async function identify(kind: SoftwareKind, command: string | undefined, baseArgs: string[], logger: Logger): Promise<Software | undefined> {
  if (!command) return undefined;
  if (!isExecutableFile(command)) {
    // A configured path that leads nowhere: the image is not offered, and its nodes fail saying so.
    logger.warn('node software not found', { kind, command });
    return undefined;
  }
  const flag = kind === 'anvil' || kind === 'avalanchego' ? '--version' : '-version';
  const label = await new Promise<string | undefined>((resolve) => {
    execFile(command, [...baseArgs, flag], { timeout: VERSION_TIMEOUT_MS }, (error, stdout) => {
      const found = error ? undefined : softwareLabel(stdout);
      if (!found) logger.warn('node software did not tell its version', { command, error });
      resolve(found);
    });
  });
  return { kind, command, baseArgs, label };
}

/** anvil's binary from the `@foundry-rs/anvil-<platform>-<arch>` package, when installed. */
export function anvilFromPackage(): string | undefined {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const manifest = resolveFile(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`);
  return manifest && path.join(path.dirname(manifest), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
}

function resolveFile(request: string): string | undefined {
  try {
    return require.resolve(request);
  } catch {
    return undefined;
  }
}
