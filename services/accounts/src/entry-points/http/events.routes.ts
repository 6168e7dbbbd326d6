import { z } from 'zod';
import { authOf } from '@cloud/auth';
import { jsonResponse } from '@cloud/http';
import { accountAuth, accountsRoute, invalidInput } from './route';
import { eventSchema, eventsQuery } from './schemas';

/** The event records of the signed-in user's calls, to every service. */
export const eventsRoutes = [
  accountsRoute({
    method: 'get',
    path: '/users/me/events',
    tags: ['events'],
    summary: 'Event records of your calls, newest first',
    auth: accountAuth,
    request: { query: eventsQuery },
    responses: { 200: jsonResponse('events', z.array(eventSchema)), 400: invalidInput },
    handler: async ({ query, res, deps }) => {
      res.json(
        await deps.events.list({
          userId: authOf(res).sub,
          limit: query.limit,
          beforeId: query.before,
          service: query.service,
          since: query.since === undefined ? undefined : new Date(query.since),
          until: query.until === undefined ? undefined : new Date(query.until),
          background: query.background === undefined ? undefined : query.background === 'true',
        }),
      );
    },
  }),
];
