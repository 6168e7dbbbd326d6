import type { RequestHandler } from 'express';
import { routeDeclarer } from '@cloud/http';
import type { StreamsService } from '../../domain/streams';

/** What the streams API's handlers work with, wired by createStreamsApp. */
export interface StreamsRouteDeps {
  streams: StreamsService;
  requireClient: RequestHandler;
}

export const streamRoute = routeDeclarer<StreamsRouteDeps>();

/** Every route of the streams API, in the order of its OpenAPI document: each takes a client access token. */
export const streamsRoutes = [] as ReturnType<typeof streamRoute>[];
