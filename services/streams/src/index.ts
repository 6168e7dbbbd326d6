export { createStreamsApp, STREAMS_SERVICE_NAME } from './app';
export type { StreamsApp, StreamsAppDependencies } from './app';
export { loadStreamsConfig, streamsEnvironment } from './config';
export type { StreamsConfig } from './config';
export { createStreamsService } from './service';
export type { StreamsService as RunningStreamsService, StreamsServiceOptions } from './service';
export { streamsMigrations, STREAMS_SCHEMA } from './migrations';
export { streamsOpenApiDocument } from './entry-points/http/openapi';
