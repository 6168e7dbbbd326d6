export { createStreamsApp, STREAMS_SERVICE_NAME } from './app';
export type { StreamsApp, StreamsAppDependencies } from './app';
export { loadStreamsConfig, streamsEnvironment } from './config';
export type { StreamsConfig } from './config';
export { createStreamsService } from './service';
export type { StreamsService as RunningStreamsService, StreamsServiceOptions } from './service';
export { streamsMigrations, STREAMS_SCHEMA } from './migrations';
export { streamsOpenApiDocument } from './entry-points/http/openapi';
// What the benchmark (bench/src/streams) drives directly: delivery as the worker calls it.
export { StreamDelivery } from './domain/delivery';
export { DeliveriesRepository } from './data-access/deliveries.repository';
export { WebhookClient } from './data-access/webhook.client';
export { TargetPolicy } from './domain/targets';
export { newSigningSecret, SecretBox } from './domain/secret-box';
export { toStreamRecord } from './data-access/stream-record';
export type { StreamRow } from './data-access/stream-record';
