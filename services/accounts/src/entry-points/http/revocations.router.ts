import { Router } from 'express';
import { z } from 'zod';
import { parseInput } from '@cloud/http';
import type { Revocations } from '../../domain/revocations';

const snapshotQuery = z.strictObject({
  after: z
    .string()
    .regex(/^\d{1,18}$/, { error: 'must be the next of the previous page' })
    .optional(),
  limit: z.coerce.number().int().min(1).max(5000).optional(),
});

/**
 * The revocation snapshot the bus serves (`revocations.snapshot`), over HTTP: a service that starts
 * while the broker is away reads it here, so it serves from the start, enforcing every revocation
 * made before (decision 020). Under `/internal/`, for services inside the cluster: neither the
 * gateway nor the ingress routes it, and the API document leaves it out.
 */
export function revocationsRouter(revocations: Revocations): Router {
  const router = Router();
  router.get('/internal/revocations', async (req, res) => {
    const { after, limit } = parseInput(snapshotQuery, req.query, 'query');
    res.json(await revocations.snapshot(after, limit));
  });
  return router;
}
