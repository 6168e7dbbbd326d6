import { randomUUID } from 'node:crypto';
import type { Logger } from '@cloud/logging';
import type { DeliveriesRepository } from '../data-access/deliveries.repository';
import type { WebhookClient, WebhookResult } from '../data-access/webhook.client';
import { retryDelayMs } from './backoff';
import type { SecretBox } from './secret-box';
import { signatureHeader } from './signature';
import type { DeliveryAttemptView, DeliveryBody, StreamRecord, TestEvent } from './stream';
import { TargetRefusedError, type TargetPolicy } from './targets';

export interface DeliverySettings {
  batchEvents: number;
  batchBytes: number;
  retryBaseMs: number;
  retryMaxMs: number;
  retryForMs: number;
}

/**
 * Delivers a stream's pending events in seq order, one batch per call: 2xx moves delivered_seq;
 * anything else schedules a retry (a row, so it survives restarts) and, once the batch has failed
 * for retryForMs, parks it as dead letters so the stream goes on.
 */
export class StreamDelivery {
  private readonly now: () => Date;

  constructor(
    private readonly deps: {
      repository: DeliveriesRepository;
      client: WebhookClient;
      targets: TargetPolicy;
      secrets: SecretBox;
      now?: () => Date;
      settings: DeliverySettings;
      logger: Logger;
    },
  ) {
    this.now = deps.now ?? (() => new Date());
  }

  async deliverDue(stream: StreamRecord): Promise<{ stream: StreamRecord; delivered: number }> {
    const { repository, settings } = this.deps;
    if (stream.nextAttemptAt && stream.nextAttemptAt > this.now()) return { stream, delivered: 0 };
    const batch = await repository.pendingBatch(stream.id, stream.deliveredSeq, settings.batchEvents, settings.batchBytes);
    if (batch.length === 0) return { stream, delivered: 0 };
    const events = batch.map((event) => `{"seq":${event.seq},${event.body.slice(1)}`);
    const attempt = stream.attempts + 1;
    const deliveryId = `dlv-${randomUUID()}`;
    const result = await this.post(stream, deliveryId, attempt, events);
    const at = this.now();
    const firstSeq = batch[0]!.seq;
    const lastSeq = batch[batch.length - 1]!.seq;
    const row = { deliveryId, attempt, firstSeq, lastSeq, events: batch.length, statusCode: result.statusCode, latencyMs: result.latencyMs, at };
    if (result.error === null) {
      await repository.recordAttempt(stream.id, { ...row, outcome: 'delivered', error: null });
      return { stream: await repository.markDelivered(stream.id, lastSeq, at), delivered: batch.length };
    }
    await repository.recordAttempt(stream.id, { ...row, outcome: 'failed', error: result.error });
    const failingSince = stream.failingSince ?? at;
    if (at.getTime() - failingSince.getTime() >= settings.retryForMs) {
      this.deps.logger.warn('delivery failed for the retry period: events parked as dead letters', { streamId: stream.id, firstSeq, lastSeq });
      await repository.recordAttempt(stream.id, {
        ...row,
        deliveryId: `dlv-${randomUUID()}`,
        outcome: 'parked',
        statusCode: null,
        latencyMs: 0,
        error: result.error,
      });
      return { stream: await repository.park(stream.id, lastSeq, at), delivered: 0 };
    }
    const nextAttemptAt = new Date(at.getTime() + retryDelayMs(attempt, settings.retryBaseMs, settings.retryMaxMs));
    return { stream: await repository.recordFailure(stream.id, { attempts: attempt, failingSince, nextAttemptAt, error: result.error }, at), delivered: 0 };
  }

  /** Sends a `test` event now, outside the stream's order, and logs it. */
  async test(stream: StreamRecord): Promise<DeliveryAttemptView> {
    const event: TestEvent & { seq: number } = { id: `evt-${randomUUID()}`, type: 'test', message: 'a test delivery from cloud-nodes streams', seq: 0 };
    const deliveryId = `dlv-${randomUUID()}`;
    const result = await this.post(stream, deliveryId, 1, [JSON.stringify(event)]);
    const view: DeliveryAttemptView = { deliveryId, attempt: 1, firstSeq: null, lastSeq: null, events: 1, outcome: 'test', ...result, at: this.now() };
    await this.deps.repository.recordAttempt(stream.id, view);
    return view;
  }

  private async post(stream: StreamRecord, deliveryId: string, attempt: number, events: string[]): Promise<WebhookResult> {
    const head: Omit<DeliveryBody, 'events'> = { streamId: stream.id, nodeId: stream.nodeId, kind: stream.kind, deliveryId, attempt };
    const body = `${JSON.stringify(head).slice(0, -1)},"events":[${events.join(',')}]}`;
    let target;
    try {
      target = await this.deps.targets.check(stream.url);
    } catch (error) {
      if (error instanceof TargetRefusedError) return { statusCode: null, latencyMs: 0, error: `target refused: ${error.message}` };
      throw error;
    }
    const secret = this.deps.secrets.open(stream.secretSealed, stream.id);
    return this.deps.client.post(target, body, {
      'content-type': 'application/json',
      'user-agent': 'cloud-nodes-streams/1',
      'x-cloud-stream': stream.id,
      'x-cloud-delivery': deliveryId,
      'x-cloud-signature': signatureHeader(secret, body, this.now()),
    });
  }
}
