// STAND-IN (branch i32-api): the test delivery only, so the API's `test` runs; the delivery
// branch's domain/delivery.ts (i32-deliver) replaces this file at merge.
import { createHmac, randomUUID } from 'node:crypto';
import type { DeliveriesRepository } from '../data-access/deliveries.repository';
import type { SecretBox } from './secret-box';
import type { DeliveryBody, StreamRecord } from './stream';
import type { DeliveryAttemptView } from './stream';
import type { TargetPolicy } from './targets';

export class StreamDelivery {
  constructor(private readonly deps: { repository: DeliveriesRepository; targets: TargetPolicy; secrets: SecretBox; timeoutMs: number; now?: () => Date }) {}

  /** A signed `test` event to the stream's URL now, outside its order, logged with outcome `test`. */
  async test(stream: StreamRecord): Promise<DeliveryAttemptView> {
    const at = (this.deps.now ?? (() => new Date()))();
    const deliveryId = `dlv-${randomUUID()}`;
    const payload: DeliveryBody = {
      streamId: stream.id,
      nodeId: stream.nodeId,
      kind: stream.kind,
      deliveryId,
      attempt: 1,
      events: [{ id: `evt-${randomUUID()}`, type: 'test', message: 'a test delivery', seq: 0 }],
    };
    const body = JSON.stringify(payload);
    const t = Math.floor(at.getTime() / 1000);
    const signature = createHmac('sha256', this.deps.secrets.open(stream.secretSealed, stream.id)).update(`${t}.${body}`).digest('hex');
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      await this.deps.targets.check(stream.url);
      const answer = await fetch(stream.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(this.deps.timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'cloud-nodes-streams/1',
          'x-cloud-stream': stream.id,
          'x-cloud-delivery': deliveryId,
          'x-cloud-signature': `t=${t},v1=${signature}`,
        },
        body,
      });
      statusCode = answer.status;
      const text = (await answer.text()).slice(0, 4096);
      if (statusCode < 200 || statusCode > 299) error = `HTTP ${statusCode}${text ? `: ${text}` : ''}`;
    } catch (failure) {
      error = (failure as Error).message;
    }
    const attempt: DeliveryAttemptView = {
      deliveryId,
      attempt: 1,
      firstSeq: null,
      lastSeq: null,
      events: 1,
      outcome: 'test',
      statusCode,
      latencyMs: Math.round(performance.now() - started),
      error,
      at,
    };
    await this.deps.repository.record(stream.id, attempt);
    return attempt;
  }
}
