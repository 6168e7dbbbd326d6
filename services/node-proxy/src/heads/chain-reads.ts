import type { Upstreams } from '../forwarding/upstreams';
import type { Family } from '../routing/interfaces';
import type { Route } from '../routing/route-table';

/** A node's head as read from it: its height, hash and its parent's hash. */
export interface ChainHead {
  height: number;
  hash: string;
  parentHash: string | undefined;
}

/** How the proxy reads a family's chain through the node's internal login. */
export interface ChainReader {
  head(rpc: Rpc): Promise<ChainHead>;
  /** The hash of the node's block at `height` (on its current chain). */
  hashAt(rpc: Rpc, height: number): Promise<string>;
}

type Rpc = (method: string, params: unknown[]) => Promise<unknown>;

interface EthereumBlock {
  number: string;
  hash: string;
  parentHash: string;
}

interface BitcoinHeader {
  height: number;
  hash: string;
  previousblockhash?: string;
}

const ethereum: ChainReader = {
  async head(rpc) {
    const block = (await rpc('eth_getBlockByNumber', ['latest', false])) as EthereumBlock | null;
    if (!block) throw new Error('the node has no latest block');
    return { height: Number.parseInt(block.number, 16), hash: block.hash, parentHash: block.parentHash };
  },
  async hashAt(rpc, height) {
    const block = (await rpc('eth_getBlockByNumber', [`0x${height.toString(16)}`, false])) as EthereumBlock | null;
    if (!block) throw new Error(`the node has no block ${height}`);
    return block.hash;
  },
};

const bitcoin: ChainReader = {
  async head(rpc) {
    const best = (await rpc('getbestblockhash', [])) as string;
    const header = (await rpc('getblockheader', [best, true])) as BitcoinHeader;
    return { height: header.height, hash: header.hash, parentHash: header.previousblockhash };
  },
  async hashAt(rpc, height) {
    return (await rpc('getblockhash', [height])) as string;
  },
};

/** The families whose heads are followed (avalanche validators are not: no pools, no cache). */
export const CHAIN_READERS: Partial<Record<Family, ChainReader>> = { ethereum, bitcoin };

/**
 * JSON-RPC to one node through the proxy's connections to it, each call bounded by `timeoutMs`:
 * the result, or an error for anything else.
 */
export function nodeRpc(upstreams: Upstreams, route: Route, timeoutMs: number): Rpc {
  const dialect = route.interfaces.family === 'bitcoin' ? '1.0' : '2.0';
  return async (method, params) => {
    const body = JSON.stringify({ jsonrpc: dialect, id: 'head', method, params });
    const answer = await upstreams.requestText(route, { method: 'POST', path: '/', body, headers: { 'content-type': 'application/json' }, timeoutMs });
    let reply: { result?: unknown; error?: { message?: string } | null };
    try {
      reply = JSON.parse(answer.text) as typeof reply;
    } catch {
      throw new Error(`${method}: HTTP ${answer.statusCode}, not JSON`);
    }
    if (answer.statusCode !== 200 || reply.error) throw new Error(`${method}: HTTP ${answer.statusCode} ${reply.error?.message ?? ''}`.trim());
    return reply.result;
  };
}
