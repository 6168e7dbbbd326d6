import type { AvalancheDevChainOptions } from './index';
import { parseNetwork } from './networks';

export type AvalancheCommand = { kind: 'version' } | { kind: 'help' } | { kind: 'avalanche'; options: Omit<AvalancheDevChainOptions, 'logger'> };

/** avalanchego flags a driver passes that mean nothing here: no P2P, no log files of its own, no index. */
const IGNORED = new Set(['staking-port', 'log-dir', 'public-ip', 'http-allowed-hosts', 'log-display-level', 'index-enabled']);
const VALUED = new Set(['network-id', 'http-host', 'http-port', 'staking-tls-cert-file', 'staking-tls-key-file', 'data-dir']);
const FLAGS = new Set(['version', 'help']);
const REQUIRED = ['network-id', 'http-port', 'staking-tls-cert-file', 'staking-tls-key-file', 'data-dir'];

export function avalancheUsage(): string[] {
  return [
    'Usage: cloud-dev-chain -chain=avalanche --network-id=<network> --http-port=<port> --staking-tls-cert-file=<file> --staking-tls-key-file=<file> --data-dir=<dir> [--http-host=<addr>]',
    '',
    '  Stands in for avalanchego: its info, health, P-chain and C-chain APIs, without consensus.',
    '  --network-id=<mainnet|fuji|local>  Network to answer for (or 1, 5, 12345) (required)',
    '  --http-host=<addr>                 Address to serve the API on (default: 127.0.0.1)',
    '  --http-port=<port>                 Port to serve the API on, 0 for any free one (required)',
    "  --staking-tls-cert-file=<file>     Staking certificate (PEM); its NodeID is the node's (required)",
    '  --staking-tls-key-file=<file>      Its private key (PEM) (required)',
    '  --data-dir=<dir>                   Data directory, created if missing (required)',
    `  Accepted and ignored: ${[...IGNORED].map((name) => `--${name}`).join(' ')}`,
  ];
}

/**
 * Parses the arguments of avalanche mode (the `-chain=avalanche` already taken out): avalanchego's
 * `--name=value` flags, also with one dash. Throws with a message for the user on an unknown flag,
 * a missing required one or a bad value.
 */
export function parseAvalancheArguments(argv: string[]): AvalancheCommand {
  const values = new Map<string, string | undefined>();
  for (const arg of argv) {
    const match = /^--?([^=]+)(?:=(.*))?$/s.exec(arg);
    if (!match) throw new Error(`Command line contains unexpected token '${arg}', see cloud-dev-chain -help for a list of options.`);
    const [, name = '', value] = match;
    if (IGNORED.has(name)) continue;
    if (!FLAGS.has(name) && !VALUED.has(name)) throw new Error(`Invalid parameter --${name}`);
    if (VALUED.has(name) && !value) throw new Error(`--${name} needs a value: --${name}=<value>`);
    values.set(name, value);
  }
  if (values.has('help')) return { kind: 'help' };
  if (values.has('version')) return { kind: 'version' };
  for (const name of REQUIRED) if (!values.has(name)) throw new Error(`--${name}=<value> is required`);
  const port = values.get('http-port') as string;
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) throw new Error(`Invalid value for --http-port: ${port} (expected an integer from 0 to 65535)`);
  return {
    kind: 'avalanche',
    options: {
      network: parseNetwork(values.get('network-id') as string),
      host: values.get('http-host') ?? '127.0.0.1',
      port: Number(port),
      stakingCertFile: values.get('staking-tls-cert-file') as string,
      stakingKeyFile: values.get('staking-tls-key-file') as string,
      dataDir: values.get('data-dir') as string,
    },
  };
}
