// Polls every service's /readyz all through an experiment, so the report can say whether one was
// unready during a fault and how long after it every one answered 200 again.
import type { ServiceProcess } from './platform';
import { sleep } from './shell';

interface Sample {
  at: number;
  service: string;
  ok: boolean;
}

export class ReadinessWatch {
  private readonly samples: Sample[] = [];
  private running = false;
  private loop?: Promise<void>;

  constructor(
    private readonly services: readonly ServiceProcess[],
    private readonly everyMs = 100,
  ) {}

  start(): void {
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        const at = Date.now();
        const results = await Promise.all(this.services.map(async (service) => ({ at, service: service.name, ok: await service.ready() })));
        this.samples.push(...results);
        await sleep(this.everyMs);
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  /** Services that answered anything but 200 at some poll in [from, to]. */
  unreadyDuring(from: number, to: number, only?: string): string[] {
    const names = new Set(this.samples.filter((s) => s.at >= from && s.at <= to && !s.ok && (only === undefined || s.service === only)).map((s) => s.service));
    return [...names];
  }

  /** Milliseconds from `since` until every service answered 200 at every later poll; undefined if that never came. */
  allReadyAfter(since: number): number | undefined {
    let lastBad = -1;
    for (const sample of this.samples) if (sample.at >= since && !sample.ok) lastBad = Math.max(lastBad, sample.at);
    if (lastBad < 0) return 0;
    const recovered = this.samples.find((s) => s.at > lastBad && s.ok && this.samples.filter((o) => o.at === s.at).every((o) => o.ok));
    return recovered ? recovered.at - since : undefined;
  }
}
