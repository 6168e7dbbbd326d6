// A steady load of reads through pool endpoints: per pool, a few loops each calling a read mix
// (the head, the chain, a block, a balance or chain info) one call at a time, with a pause. Every
// call is kept with when it was made, whether it was a result, why not, and the member that served it.
import { callPool, type Pool } from './pools';
import { sleep } from './shell';

export interface PoolRead {
  at: number;
  poolId: string;
  method: string;
  ok: boolean;
  failure?: string;
  member?: string;
}

export interface PoolReadSummary {
  sent: number;
  failed: number;
  /** Failed reads by why (`no answer (ECONNRESET)`, `HTTP 502`, `JSON-RPC …`). */
  failedByKind: Record<string, number>;
  /** Reads by the member that served them (`none` when the answer named none). */
  byMember: Record<string, number>;
}

const READS: Record<Pool['family'], [string, unknown[]][]> = {
  ethereum: [
    ['eth_blockNumber', []],
    ['eth_getBlockByNumber', ['latest', false]],
    ['eth_chainId', []],
    ['eth_getBalance', ['0x0000000000000000000000000000000000000000', 'latest']],
  ],
  bitcoin: [
    ['getblockcount', []],
    ['getbestblockhash', []],
    ['getblockchaininfo', []],
    ['getblockhash', [0]],
  ],
};

export class PoolLoad {
  readonly reads: PoolRead[] = [];
  private running = false;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly pools: readonly Pool[],
    private readonly loopsPerPool: number,
    private readonly pauseMs: number,
  ) {}

  start(): void {
    this.running = true;
    for (const pool of this.pools) for (let i = 0; i < this.loopsPerPool; i += 1) this.loops.push(this.loop(pool, i));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    this.loops = [];
  }

  summary(poolId: string, from = 0, to = Infinity): PoolReadSummary {
    const reads = this.reads.filter((r) => r.poolId === poolId && r.at >= from && r.at <= to);
    const failedByKind: Record<string, number> = {};
    const byMember: Record<string, number> = {};
    for (const r of reads) {
      if (!r.ok) failedByKind[`${r.method}: ${r.failure}`] = (failedByKind[`${r.method}: ${r.failure}`] ?? 0) + 1;
      byMember[r.member ?? 'none'] = (byMember[r.member ?? 'none'] ?? 0) + 1;
    }
    return { sent: reads.length, failed: reads.filter((r) => !r.ok).length, failedByKind, byMember };
  }

  private async loop(pool: Pool, offset: number): Promise<void> {
    const reads = READS[pool.family];
    for (let i = offset; this.running; i += 1) {
      const [method, params] = reads[i % reads.length]!;
      const { result, failure, member } = await callPool(pool, method, params);
      this.reads.push({ at: Date.now(), poolId: pool.id, method, ok: result !== undefined && failure === undefined, failure, member });
      await sleep(this.pauseMs);
    }
  }
}

/** `summary` in one line: `412 reads, 0 failed; by member node-…: 210, node-…: 202`. */
export function describeReads(s: PoolReadSummary): string {
  const kinds = Object.entries(s.failedByKind).map(([kind, n]) => `${kind} × ${n}`);
  const members = Object.entries(s.byMember).map(([member, n]) => `${member}: ${n}`);
  return `${s.sent} reads, ${s.failed} failed${kinds.length ? ` (${kinds.join('; ')})` : ''}; by member ${members.join(', ')}`;
}
