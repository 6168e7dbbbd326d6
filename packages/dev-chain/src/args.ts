import { parseRpcAuth } from './auth';
import type { AvalancheCommand } from './avalanche/args';
import { avalancheUsage, parseAvalancheArguments } from './avalanche/args';
import type { DevChainOptions } from './index';
import type { ChainName } from './params';
import { CHAINS } from './params';
import { DEV_CHAIN_NAME } from './version';

export type Command = { kind: 'version' } | { kind: 'help' } | { kind: 'run'; options: Omit<DevChainOptions, 'logger'> } | AvalancheCommand;

/**
 * bitcoind options a driver passes that mean nothing here (no P2P, no wallet, no index, always
 * regtest). -port (the P2P port) is among them because drivers pass it to litecoind/bitcoind too.
 */
const IGNORED = new Set(['regtest', 'disablewallet', 'listen', 'port', 'server', 'printtoconsole', 'dbcache', 'rpcallowip', 'txindex']);
const FLAGS = new Set(['rest', 'version', 'help', '?']);
const VALUED = new Set(['chain', 'datadir', 'rpcbind', 'rpcport', 'rpcauth', 'blockinterval']);

export function usage(): string {
  return [
    `Usage: cloud-dev-chain -datadir=<dir> -rpcport=<port> [options]`,
    '',
    `${DEV_CHAIN_NAME}: a private Bitcoin-family development chain answering like bitcoind -regtest.`,
    '',
    `  -chain=<${CHAINS.join('|')}>   Which chain to imitate (default: btc)`,
    '  -datadir=<dir>          Data directory, created if missing (required)',
    '  -rpcbind=<addr>         Address to serve RPC on (default: 127.0.0.1)',
    '  -rpcport=<port>         Port to serve RPC on, 0 for any free one (required)',
    '  -rpcauth=<user:salt$hash>  Credentials, as for bitcoind; may be repeated (default: cookie)',
    '  -rest                   Serve the REST interface',
    '  -blockinterval=<secs>   Mine a block every <secs> seconds (default: 0, only when asked)',
    '  -version                Print the version and exit',
    `  Accepted and ignored: ${[...IGNORED].map((name) => `-${name}`).join(' ')}`,
    '',
    ...avalancheUsage(),
  ].join('\n');
}

function flag(name: string, value: string | undefined): boolean {
  if (value === undefined || value === '' || value === '1') return true;
  if (value === '0') return false;
  throw new Error(`Invalid value for -${name}: ${value} (expected 0 or 1)`);
}

function integer(name: string, value: string, min: number, max: number): number {
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= min && number <= max)) throw new Error(`Invalid value for -${name}: ${value} (expected an integer from ${min} to ${max})`);
  return number;
}

/**
 * Parses bitcoind-style arguments: `-name=value`, bare `-flag`, `-noflag` for `-flag=0`, and `--name`
 * for `-name`. The last value of an option wins, except -rpcauth, which adds up. Throws with a
 * message for the user on an unknown option or a bad value. With `-chain=avalanche` the rest are
 * avalanchego's flags instead (see parseAvalancheArguments).
 */
export function parseArguments(argv: string[]): Command {
  const avalanche = argv.findIndex((arg) => /^--?chain=avalanche$/.test(arg));
  if (avalanche >= 0) return parseAvalancheArguments(argv.filter((_, index) => index !== avalanche));
  const values = new Map<string, string | undefined>();
  const rpcauth: string[] = [];
  for (const arg of argv) {
    const match = /^--?([^=]+)(?:=(.*))?$/s.exec(arg);
    if (!match) throw new Error(`Command line contains unexpected token '${arg}', see cloud-dev-chain -help for a list of options.`);
    let [, name = '', value] = match;
    if (value === undefined && name.startsWith('no') && (FLAGS.has(name.slice(2)) || IGNORED.has(name.slice(2)))) {
      name = name.slice(2);
      value = '0';
    }
    if (IGNORED.has(name)) continue;
    if (!FLAGS.has(name) && !VALUED.has(name)) throw new Error(`Invalid parameter -${name}`);
    if (VALUED.has(name) && value === undefined) throw new Error(`-${name} needs a value: -${name}=<value>`);
    if (name === 'rpcauth') {
      parseRpcAuth(value as string); // a malformed entry is a bad value, refused here like any other
      rpcauth.push(value as string);
    } else {
      values.set(name, value);
    }
  }
  if (values.has('help') && flag('help', values.get('help'))) return { kind: 'help' };
  if (values.has('?')) return { kind: 'help' };
  if (values.has('version') && flag('version', values.get('version'))) return { kind: 'version' };

  const chain = values.get('chain') ?? 'btc';
  if (!(CHAINS as readonly string[]).includes(chain)) throw new Error(`Invalid value for -chain: ${chain} (expected ${[...CHAINS, 'avalanche'].join(', ')})`);
  const datadir = values.get('datadir');
  if (!datadir) throw new Error('-datadir=<dir> is required');
  const rpcport = values.get('rpcport');
  if (rpcport === undefined) throw new Error('-rpcport=<port> is required');
  const host = values.get('rpcbind') ?? '127.0.0.1';
  if (host === '') throw new Error('Invalid value for -rpcbind: an address is required');
  const interval = values.get('blockinterval') ?? '0';
  const blockIntervalSeconds = /^\d+(\.\d+)?$/.test(interval) ? Number(interval) : Number.NaN;
  if (!Number.isFinite(blockIntervalSeconds)) throw new Error(`Invalid value for -blockinterval: ${interval} (expected a number of seconds, 0 for none)`);
  return {
    kind: 'run',
    options: {
      chain: chain as ChainName,
      datadir,
      host,
      port: integer('rpcport', rpcport, 0, 65535),
      rpcauth,
      rest: values.has('rest') && flag('rest', values.get('rest')),
      blockIntervalSeconds,
    },
  };
}
