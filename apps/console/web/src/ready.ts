import { readyLines, shellWord, type ReadyCredential, type ReadyLine } from '@cloud/sdk/browser';
import type { NewCredential } from './credentials';

/** What the ready lines need of a node or validator: its image, whether it is jwt, its record's endpoints. */
export interface Callable {
  image: string;
  jwt: boolean;
  /** On a private dev chain: the only nodes the dev methods (fund, mine) are for. */
  dev?: boolean | null;
  endpoints: Parameters<typeof readyLines>[0]['endpoints'];
}

/** The SDK's ready lines for a credential's secret, just created or rotated. */
export function linesFor(node: Callable, caFile: string | null, secret: NewCredential): ReadyLine[] {
  return readyLines({ image: node.image, endpoints: node.endpoints, caFile, credential: readyCredential(secret) });
}

/**
 * The ready lines when no secret is at hand: a jwt node's with the client access token, else a
 * Basic credential's with its user name (or `<user>`) and `<password>` where the password goes.
 */
export function placeholderLines(node: Callable, caFile: string | null, user?: string): ReadyLine[] {
  const credential: ReadyCredential = node.jwt ? { kind: 'jwt' } : { kind: 'basic', user: user ?? '<user>', password: '<password>' };
  return readyLines({ image: node.image, endpoints: node.endpoints, caFile, credential });
}

function readyCredential(secret: NewCredential): ReadyCredential {
  return secret.kind === 'basic' ? { kind: 'basic', user: secret.nodeUser, password: secret.nodePass } : { kind: 'token', urls: secret.urls };
}

/** 100 ether in wei, as anvil_setBalance takes it. */
export const HUNDRED_ETHER = '0x56BC75E2D63100000';

/**
 * The lines that fund an address and mine on a dev node, with the node's own dev methods (which the
 * proxy allows on dev nodes only): anvil's through cast, which needs a URL token's address (it takes
 * no Basic credential), or regtest's generatetoaddress through the node's CLI with a Basic
 * credential. They are the SDK's ready lines for the same node and credential, with the dev call in
 * place of the read-only one, so the address, port, CA and quoting are the SDK's.
 * `secret`: a credential's secret when one was just shown; else the lines have placeholders.
 * None for a node on a real network, which refuses those methods.
 */
export function devLines(node: Callable, caFile: string | null, address: string, secret: NewCredential | undefined, user?: string): ReadyLine[] {
  if (!node.dev) return [];
  const to = shellWord(address.trim() || '<address>');
  if (node.image === 'eth') {
    let url = "'<the URL token’s address>'";
    let note: string | undefined;
    if (secret?.kind === 'token') {
      const cast = linesFor(node, caFile, secret).find((line) => line.name === 'cast');
      url = /--rpc-url (\S+)$/.exec(cast?.line ?? '')?.[1] ?? url;
      note = cast?.note;
    }
    const withNote = (line: ReadyLine): ReadyLine => (note ? { ...line, note } : line);
    return [
      withNote({ name: 'cast: give the address 100 ether', line: `cast rpc anvil_setBalance ${to} ${HUNDRED_ETHER} --rpc-url ${url}` }),
      withNote({ name: 'cast: mine a block', line: `cast rpc evm_mine --rpc-url ${url}` }),
    ];
  }
  const lines = secret?.kind === 'basic' ? linesFor(node, caFile, secret) : placeholderLines(node, caFile, user);
  const cli = lines.find((line) => line.name.endsWith('-cli'));
  if (!cli) return [];
  return [{ ...cli, name: `${cli.name}: mine 101 blocks to the address`, line: cli.line.replace(/ getblockcount$/, ` generatetoaddress 101 ${to}`) }];
}
