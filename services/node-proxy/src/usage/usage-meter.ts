import { message, type Bus } from '@cloud/bus';
import type { Logger } from '@cloud/logging';

interface Counts {
  userId: string;
  requests: number;
  blocked: number;
  bytesIn: number;
  bytesOut: number;
}

/** Most nodes in one `node.usage` message (the schema's limit). */
const NODES_PER_MESSAGE = 1000;

/**
 * Counts calls and bytes per node in memory and publishes them as `node.usage` messages every
 * interval: one message per interval for all nodes (or per 1000 nodes), never one per call. If
 * the bus does not take them, the counts are kept and go with the next interval's.
 */
export class UsageMeter {
  private counts = new Map<string, Counts>();
  private from: Date;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(private readonly options: { bus: Bus; logger: Logger; proxyId: string; intervalMs: number; clock?: () => number }) {
    this.from = new Date(this.now());
  }

  record(nodeId: string, userId: string, usage: { requests?: number; blocked?: number; bytesIn?: number; bytesOut?: number }): void {
    let counts = this.counts.get(nodeId);
    if (!counts) {
      counts = { userId, requests: 0, blocked: 0, bytesIn: 0, bytesOut: 0 };
      this.counts.set(nodeId, counts);
    }
    counts.requests += usage.requests ?? 0;
    counts.blocked += usage.blocked ?? 0;
    counts.bytesIn += usage.bytesIn ?? 0;
    counts.bytesOut += usage.bytesOut ?? 0;
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Publishes what was counted since the last flush; on failure the counts stay for the next one. */
  flush(): Promise<void> {
    this.flushing ??= this.publish().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  /** Stops the timer and publishes what is left. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async publish(): Promise<void> {
    if (this.counts.size === 0) return;
    const taken = this.counts;
    const from = this.from;
    const to = new Date(this.now());
    this.counts = new Map();
    this.from = to;
    const nodes = [...taken].map(([nodeId, counts]) => ({ nodeId, ...counts }));
    const messages = [];
    for (let start = 0; start < nodes.length; start += NODES_PER_MESSAGE) {
      messages.push(message('node.usage', { proxyId: this.options.proxyId, from: from.toISOString(), to: to.toISOString(), nodes: nodes.slice(start, start + NODES_PER_MESSAGE) }, to));
    }
    try {
      await this.options.bus.publish(messages);
    } catch (error) {
      this.options.logger.warn('could not publish node usage; keeping it for the next interval', { error, nodes: nodes.length });
      for (const [nodeId, counts] of taken) this.record(nodeId, counts.userId, counts);
      this.from = from;
    }
  }

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }
}
