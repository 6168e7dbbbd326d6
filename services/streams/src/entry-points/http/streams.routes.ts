import type { RequestHandler } from 'express';
import { z } from 'zod';
import { authOf } from '@cloud/auth';
import { clientTokenAuth, errorResponse, jsonResponse, routeDeclarer } from '@cloud/http';
import type { StreamsService } from '../../domain/streams';
import {
  createStreamBody,
  deadLetterSchema,
  deletedStreamSchema,
  deliveryAttemptSchema,
  limitQuery,
  replayedSchema,
  streamParams,
  streamSchema,
  updateStreamBody,
} from './schemas';

/** What the streams API's handlers work with, wired by createStreamsApp. */
export interface StreamsRouteDeps {
  streams: StreamsService;
  requireClient: RequestHandler;
}

export const streamRoute = routeDeclarer<StreamsRouteDeps>();
const clientAuth = clientTokenAuth<StreamsRouteDeps>();
const noStream = errorResponse('no such stream of yours (NotFound)');
const badId = errorResponse('an id that is not stream-<uuid> (InvalidInput)');
const stream = '/users/me/streams/:streamId';

/** A call on one stream of the caller's: its id checked, answered with what `answer` gives. */
const onStream = (
  method: 'get' | 'post' | 'delete',
  path: string,
  summary: string,
  answer: ReturnType<typeof jsonResponse>,
  call: (streams: StreamsService, userId: string, streamId: string) => Promise<unknown>,
  more: Record<number, ReturnType<typeof errorResponse>> = {},
) =>
  streamRoute({
    method,
    path,
    tags: ['streams'],
    summary,
    auth: clientAuth,
    request: { params: streamParams },
    responses: { 200: answer, 400: badId, 404: noStream, ...more },
    handler: async ({ params: { streamId }, res, deps }) => {
      res.json(await call(deps.streams, authOf(res).sub, streamId));
    },
  });

/** Every route of the streams API, in the order of its OpenAPI document: each takes a client access token. */
export const streamsRoutes = [
  streamRoute({
    method: 'post',
    path: '/users/me/streams',
    tags: ['streams'],
    summary:
      "Stream a node's (or pool's) blocks or address activity to your webhook: signed, in order, retried for a day; the signing secret is in this answer only",
    auth: clientAuth,
    request: { body: createStreamBody },
    responses: {
      200: jsonResponse('the new stream, with its signing secret (shown once)', streamSchema),
      400: errorResponse(
        'the body is not valid, naming the field (InvalidInput): a node or pool that is not yours, is being deleted or is not Ethereum- or Bitcoin-family; a refused URL (and why); addresses missing for transactions, given for blocks, or malformed; fromHeight above the head or more than STREAMS_MAX_BACKFILL_BLOCKS below it',
      ),
      403: errorResponse('you have as many streams as allowed (LimitExceeded)'),
      409: errorResponse("fromHeight given while the node's head cannot be read (it is not running): backfill once it runs (Conflict)"),
      503: errorResponse('the nodes are still being loaded: try again in a few seconds (ServiceUnavailable)'),
    },
    handler: async ({ body, res, deps }) => {
      res.json(await deps.streams.create(authOf(res).sub, body));
    },
  }),
  streamRoute({
    method: 'get',
    path: '/users/me/streams',
    tags: ['streams'],
    summary: 'Your streams, oldest first, each with its cursor, queue and last delivery',
    auth: clientAuth,
    responses: { 200: jsonResponse('your streams', z.array(streamSchema)) },
    handler: async ({ res, deps }) => {
      res.json(await deps.streams.list(authOf(res).sub));
    },
  }),
  onStream('get', stream, 'One stream: its state, cursor, queue, failures and last delivery', jsonResponse('the stream', streamSchema), (streams, user, id) =>
    streams.get(user, id),
  ),
  streamRoute({
    method: 'patch',
    path: stream,
    tags: ['streams'],
    summary: 'Rename a stream or point it at another URL (checked as at creation); pending events go to the new URL',
    auth: clientAuth,
    request: { params: streamParams, body: updateStreamBody },
    responses: {
      200: jsonResponse('the stream, changed', streamSchema),
      400: errorResponse('the body is not valid, naming the field, or the URL is refused and why (InvalidInput)'),
      404: noStream,
    },
    handler: async ({ params: { streamId }, body, res, deps }) => {
      res.json(await deps.streams.update(authOf(res).sub, streamId, body));
    },
  }),
  onStream(
    'delete',
    stream,
    'Delete a stream: nothing more is scanned or delivered',
    jsonResponse('the stream is deleted', deletedStreamSchema),
    (streams, user, id) => streams.delete(user, id),
  ),
  onStream(
    'post',
    `${stream}/pause`,
    'Pause a stream: neither scanned nor delivered until resumed, which goes on where it stopped',
    jsonResponse('the stream, paused', streamSchema),
    (streams, user, id) => streams.pause(user, id),
    { 409: errorResponse('the stream is already paused (Conflict)') },
  ),
  onStream(
    'post',
    `${stream}/resume`,
    'Resume a paused stream where it stopped; a batch waiting for its retry is tried at once',
    jsonResponse('the stream, active', streamSchema),
    (streams, user, id) => streams.resume(user, id),
    { 409: errorResponse('the stream is not paused (Conflict)') },
  ),
  onStream(
    'post',
    `${stream}/secret`,
    'Rotate the signing secret: deliveries from now on are signed with the new one, shown in this answer only',
    jsonResponse('the stream, with its new secret (shown once)', streamSchema),
    (streams, user, id) => streams.rotateSecret(user, id),
  ),
  onStream(
    'post',
    `${stream}/test`,
    'Send a signed test event to the URL now, outside the stream\'s order, and answer how it went (logged with outcome "test")',
    jsonResponse('the attempt', deliveryAttemptSchema),
    (streams, user, id) => streams.test(user, id),
  ),
  streamRoute({
    method: 'get',
    path: `${stream}/deliveries`,
    tags: ['streams'],
    summary: 'The delivery log: each attempt, newest first, with its status code, latency and error (the last 1000 are kept)',
    auth: clientAuth,
    request: { params: streamParams, query: limitQuery },
    responses: { 200: jsonResponse('the attempts', z.array(deliveryAttemptSchema)), 400: badId, 404: noStream },
    handler: async ({ params: { streamId }, query: { limit }, res, deps }) => {
      res.json(await deps.streams.deliveries(authOf(res).sub, streamId, limit));
    },
  }),
  streamRoute({
    method: 'get',
    path: `${stream}/dead-letters`,
    tags: ['streams'],
    summary: 'Events parked after failing for the retry period (24 h by default), oldest first',
    auth: clientAuth,
    request: { params: streamParams, query: limitQuery },
    responses: { 200: jsonResponse('the dead letters, as they would be delivered', z.array(deadLetterSchema)), 400: badId, 404: noStream },
    handler: async ({ params: { streamId }, query: { limit }, res, deps }) => {
      res.json(await deps.streams.deadLetters(authOf(res).sub, streamId, limit));
    },
  }),
  onStream(
    'post',
    `${stream}/dead-letters/replay`,
    'Deliver the dead letters again, after what is pending, with the same event ids (new seqs)',
    jsonResponse('how many were put back', replayedSchema),
    (streams, user, id) => streams.replay(user, id),
  ),
];
