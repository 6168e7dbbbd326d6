// Which of a block's transactions a `transactions` stream delivers, and the checks of the
// addresses and topics it is created with. Pure: the scanner reads the chain and the database.
import { InvalidInputError } from '@cloud/http';
import type { TrackedOutput } from '../data-access/scan.repository';
import type { BitcoinTransaction, EthereumLog, EthereumTransaction } from './chain-readers';
import type { StreamFamily } from './node-routes';
import type { BitcoinTransactionEvent, BlockEvent, EthereumTransactionEvent, ReorgEvent } from './stream';

/** An event before it is stored (the repository gives it its id and seq). */
export type Unsaved<T> = T extends unknown ? Omit<T, 'id'> : never;
export type UnsavedEvent = Unsaved<BlockEvent | ReorgEvent | EthereumTransactionEvent | BitcoinTransactionEvent>;

const ETHEREUM_ADDRESS = /^0x[0-9a-f]{40}$/i;
const TOPIC = /^0x[0-9a-f]{64}$/i;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
// Human-readable part, separator `1`, data in the bech32 alphabet; all one case (lower as nodes write it).
const BECH32 = /^[a-z]{1,83}1[02-9ac-hj-np-z]{6,}$/;
// Bitcoin Cash's cashaddr as its node writes it: `bitcoincash:q…` (`bchreg:` on regtest).
const CASHADDR = /^[a-z]{1,20}:[02-9ac-hj-np-z]{20,}$/;

/**
 * The watched addresses of a new stream in the form its node writes them, without repeats: eth
 * `0x` and 40 hex digits, lower-cased; Bitcoin family base58, bech32 (an upper-case one lower-cased)
 * or cashaddr, 14–90 characters. An InvalidInputError names the first bad one.
 */
export function normalizeAddresses(family: StreamFamily, addresses: string[]): string[] {
  const normal = addresses.map((address) => {
    if (family === 'ethereum') {
      if (!ETHEREUM_ADDRESS.test(address)) throw new InvalidInputError(`body.addresses: ${JSON.stringify(address)} is not an eth address (0x and 40 hex digits)`);
      return address.toLowerCase();
    }
    const lower = address === address.toUpperCase() ? address.toLowerCase() : address;
    const valid = address.length >= 14 && address.length <= 90 && (BASE58.test(address) || BECH32.test(lower) || CASHADDR.test(lower));
    if (!valid)
      throw new InvalidInputError(`body.addresses: ${JSON.stringify(address)} is not a Bitcoin-family address (base58, bech32 or cashaddr, 14–90 characters)`);
    return BASE58.test(address) ? address : lower;
  });
  return [...new Set(normal)];
}

/** The log topics (topic 0) of a new eth stream: `0x` and 64 hex digits, lower-cased, without repeats. */
export function normalizeTopics(topics: string[]): string[] {
  const normal = topics.map((topic) => {
    if (!TOPIC.test(topic)) throw new InvalidInputError(`body.topics: ${JSON.stringify(topic)} is not a log topic (0x and 64 hex digits)`);
    return topic.toLowerCase();
  });
  return [...new Set(normal)];
}

export interface BlockPlace {
  height: number;
  blockHash: string;
}

/**
 * The eth transactions of a block touching the watched addresses, in block order: sent from or
 * to one, or with a log of a watched contract (whose topic 0 is one of `topics`, when given).
 * Addresses, topics and the block's are lower-case.
 */
export function matchEthereum(
  place: BlockPlace,
  block: { transactions: EthereumTransaction[]; logs: EthereumLog[] },
  addresses: readonly string[],
  topics: readonly string[],
): Array<Unsaved<EthereumTransactionEvent>> {
  const watched = new Set(addresses);
  const topicSet = new Set(topics);
  const logsOf = new Map<string, EthereumLog[]>();
  for (const log of block.logs) {
    if (!watched.has(log.address) || (topicSet.size > 0 && !topicSet.has(log.topics[0] ?? ''))) continue;
    logsOf.set(log.transactionHash, [...(logsOf.get(log.transactionHash) ?? []), log]);
  }
  return block.transactions.flatMap((tx) => {
    const logs = (logsOf.get(tx.hash) ?? []).sort((a, b) => a.logIndex - b.logIndex);
    const matched: EthereumTransactionEvent['matched'] = [];
    if (watched.has(tx.from)) matched.push('from');
    if (tx.to !== null && watched.has(tx.to)) matched.push('to');
    if (logs.length > 0) matched.push('log');
    if (matched.length === 0) return [];
    return [
      {
        type: 'transaction' as const,
        family: 'ethereum' as const,
        ...place,
        hash: tx.hash,
        from: tx.from,
        to: tx.to,
        value: tx.value,
        matched,
        logs: logs.map(({ address, topics: logTopics, data, logIndex }) => ({ address, topics: logTopics, data, logIndex })),
      },
    ];
  });
}

/** `txid:vout`, the key of an output. */
export const outpointKey = (txid: string, vout: number): string => `${txid}:${vout}`;

/**
 * The Bitcoin-family transactions of a block paying a watched address or spending an output that
 * paid one, in block order, and the new outputs paying watched addresses (to be tracked).
 * `tracked`: the outputs already known (by outpointKey); outputs of earlier transactions of the
 * same block count too, so a payment spent within its own block is seen.
 */
export function matchBitcoin(
  place: BlockPlace,
  transactions: BitcoinTransaction[],
  addresses: readonly string[],
  tracked: ReadonlyMap<string, TrackedOutput>,
): { events: Array<Unsaved<BitcoinTransactionEvent>>; outputs: TrackedOutput[] } {
  const watched = new Set(addresses);
  const known = new Map(tracked);
  const events: Array<Unsaved<BitcoinTransactionEvent>> = [];
  const found: TrackedOutput[] = [];
  for (const tx of transactions) {
    const inputs = tx.inputs.flatMap((input) => {
      const spent = known.get(outpointKey(input.txid, input.vout));
      return spent ? [{ txid: spent.txid, vout: spent.vout, address: spent.address, value: spent.value }] : [];
    });
    const outputs = tx.outputs.flatMap((output) =>
      output.address !== null && watched.has(output.address) ? [{ vout: output.vout, address: output.address, value: output.value }] : [],
    );
    for (const output of outputs) {
      const trackedOutput = { txid: tx.txid, ...output, height: place.height };
      known.set(outpointKey(tx.txid, output.vout), trackedOutput);
      found.push(trackedOutput);
    }
    const matched: BitcoinTransactionEvent['matched'] = [];
    if (outputs.length > 0) matched.push('output');
    if (inputs.length > 0) matched.push('input');
    if (matched.length > 0) events.push({ type: 'transaction', family: 'bitcoin', ...place, txid: tx.txid, matched, outputs, inputs });
  }
  return { events, outputs: found };
}
