import { Router, type RequestHandler } from 'express';
import { authOf } from '@cloud/auth';
import { InvalidInputError, parseInput } from '@cloud/http';
import { UnknownCursorError, type EventsRepository } from '../../data-access/events.repository';
import { eventsQuery } from './schemas';

export function eventsRouter(events: EventsRepository, requireAccount: RequestHandler): Router {
  const router = Router();

  router.get('/users/me/events', requireAccount, async (req, res) => {
    const query = parseInput(eventsQuery, req.query, 'query');
    try {
      res.json(
        await events.list({
          userId: authOf(res).sub,
          limit: query.limit,
          beforeId: query.before,
          service: query.service,
          since: query.since === undefined ? undefined : new Date(query.since),
          until: query.until === undefined ? undefined : new Date(query.until),
          background: query.background === undefined ? undefined : query.background === 'true',
        }),
      );
    } catch (error) {
      if (error instanceof UnknownCursorError) throw new InvalidInputError('query.before: no such event of yours');
      throw error;
    }
  });

  return router;
}
