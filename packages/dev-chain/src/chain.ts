import type { Block } from './block';
import { blockHash, blockWork, meetsTarget, merkleRoot, parseBlock, serializeBlock, serializeHeader, toDisplayHex, txid } from './block';
import type { ChainParams } from './params';
import { BLOCK_VERSION, REGTEST_BITS, coinbaseTransaction } from './params';

export interface ChainEntry {
  height: number;
  /** Display hex. */
  hash: string;
  block: Block;
  /** The serialized block. */
  raw: Buffer;
  /** Cumulative work up to and including this block. */
  chainwork: bigint;
  /** Median time of the last 11 blocks up to this one (Core's GetMedianTimePast). */
  medianTime: number;
}

const MEDIAN_TIME_SPAN = 11;

/** One active chain from the genesis block up, kept in memory; blocks only ever get added on top. */
export class Chain {
  private readonly entries: ChainEntry[] = [];
  private readonly byHash = new Map<string, ChainEntry>();

  /**
   * @param stored serialized blocks from the genesis block up, as persisted; each must extend the last.
   * @param onConnect called for each block added (a new chain's genesis block too, not blocks loaded), e.g. to persist it.
   */
  constructor(
    readonly params: ChainParams,
    stored: Buffer[],
    private readonly onConnect: (entry: ChainEntry) => void,
  ) {
    const genesis = stored[0] ?? serializeBlock(params.genesis);
    if (!blockHash(parseBlock(genesis).header).equals(blockHash(params.genesis.header))) {
      throw new Error(`the stored chain does not start at the ${params.name} regtest genesis block`);
    }
    for (const raw of [genesis, ...stored.slice(1)]) this.connect(parseBlock(raw), raw);
    if (stored.length === 0) this.onConnect(this.tip);
  }

  get tip(): ChainEntry {
    return this.entries[this.entries.length - 1] as ChainEntry;
  }

  get height(): number {
    return this.entries.length - 1;
  }

  at(height: number): ChainEntry | undefined {
    return Number.isInteger(height) && height >= 0 ? this.entries[height] : undefined;
  }

  get(hash: string): ChainEntry | undefined {
    return this.byHash.get(hash.toLowerCase());
  }

  /**
   * Mines up to `count` blocks on the tip, each with its coinbase alone, trying at most `maxTries`
   * nonces in all (Core's generate* semantics: fewer blocks come back if the tries run out).
   */
  mine(count: number, maxTries = 1_000_000, now: () => number = Date.now): ChainEntry[] {
    const mined: ChainEntry[] = [];
    let triesLeft = maxTries;
    for (let i = 0; i < count && triesLeft > 0; i += 1) {
      const coinbase = coinbaseTransaction(this.height + 1);
      const header = {
        version: BLOCK_VERSION,
        prevHash: blockHash(this.tip.block.header),
        merkleRoot: merkleRoot([txid(coinbase)]),
        // Core's UpdateTime: the clock, but always past the median time of the last 11 blocks.
        time: Math.max(this.tip.medianTime + 1, Math.floor(now() / 1000)),
        bits: REGTEST_BITS,
        nonce: 0,
      };
      while (triesLeft > 0 && !meetsTarget(this.params.powHash(serializeHeader(header)), header.bits)) {
        header.nonce += 1;
        triesLeft -= 1;
      }
      if (triesLeft === 0) break;
      const block = { header, transactions: [coinbase] };
      const entry = this.connect(block, serializeBlock(block));
      this.onConnect(entry);
      mined.push(entry);
    }
    return mined;
  }

  private connect(block: Block, raw: Buffer): ChainEntry {
    const previous = this.entries[this.entries.length - 1];
    if (previous && !block.header.prevHash.equals(blockHash(previous.block.header))) {
      throw new Error(`block ${this.entries.length} does not extend block ${previous.hash}`);
    }
    const times = [...this.entries.slice(1 - MEDIAN_TIME_SPAN).map((entry) => entry.block.header.time), block.header.time];
    times.sort((a, b) => a - b);
    const entry: ChainEntry = {
      height: this.entries.length,
      hash: toDisplayHex(blockHash(block.header)),
      block,
      raw,
      chainwork: (previous?.chainwork ?? 0n) + blockWork(block.header.bits),
      medianTime: times[Math.floor(times.length / 2)] as number,
    };
    this.entries.push(entry);
    this.byHash.set(entry.hash, entry);
    return entry;
  }
}
