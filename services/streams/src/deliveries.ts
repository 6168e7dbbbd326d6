// The delivery pieces as the worker wires them (`@cloud/streams/deliveries`), for the benchmark
// (bench/src/streams), which drives a stream's delivery directly on rows it wrote.
export { StreamDelivery } from './domain/delivery';
export { DeliveriesRepository } from './data-access/deliveries.repository';
export { WebhookClient } from './data-access/webhook.client';
export { TargetPolicy } from './domain/targets';
export { newSigningSecret, SecretBox } from './domain/secret-box';
export { toStreamRecord } from './data-access/stream-record';
export type { StreamRow } from './data-access/stream-record';
