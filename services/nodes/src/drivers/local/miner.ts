import type { Logger } from '@cloud/logging';
import { callJsonRpc, type RpcCall, type RpcTarget } from '../json-rpc';

export interface MinerPlan {
  rpc: RpcTarget;
  mine: RpcCall;
  checkpoint?: RpcCall;
  intervalMs: number;
  checkpointEveryMs: number;
}

/**
 * Keeps a running bitcoin-family node's chain moving, a block per interval, and has it write its
 * state to disk every `checkpointEveryMs`. One call at a time: a slow node is not piled onto.
 */
export class Miner {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private lastCheckpoint = Date.now();
  private failing = false;

  constructor(
    private readonly plan: MinerPlan,
    private readonly logger: Logger,
  ) {
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (!this.stopped) this.timer = setTimeout(() => void this.tick(), this.plan.intervalMs);
  }

  private async tick(): Promise<void> {
    const { rpc, mine, checkpoint, checkpointEveryMs } = this.plan;
    try {
      await callJsonRpc(rpc, mine);
      if (checkpoint && Date.now() - this.lastCheckpoint >= checkpointEveryMs) {
        await callJsonRpc(rpc, checkpoint);
        this.lastCheckpoint = Date.now();
      }
      if (this.failing) this.logger.info('mining works again');
      this.failing = false;
    } catch (error) {
      // Logged when it starts failing, not every interval.
      if (!this.failing && !this.stopped) this.logger.warn('mining a block failed', { error });
      this.failing = true;
    }
    this.schedule();
  }
}
