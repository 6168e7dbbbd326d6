import { z } from 'zod';
import { USAGE_OUTCOMES } from '@cloud/bus';
import { timestamp } from '@cloud/http';

// Request and response shapes of the usage API; they validate input and build the OpenAPI document.

export const usageQuery = z.strictObject({
  from: timestamp().optional().meta({ description: 'start of the range (taken back to its bucket); default: an hour (minute) or a day (hour) before `to`' }),
  to: timestamp().optional().meta({ description: 'end of the range, exclusive (taken on to the next bucket); default: now' }),
  granularity: z
    .enum(['minute', 'hour'], { error: 'must be minute or hour' })
    .optional()
    .meta({ description: 'bucket size; default minute. At most 1440 buckets per query' }),
});

const callsByOutcome = z
  .object(Object.fromEntries(USAGE_OUTCOMES.map((outcome) => [outcome, z.number().int()])) as Record<(typeof USAGE_OUTCOMES)[number], z.ZodNumber>)
  .meta({
    id: 'CallsByOutcome',
    description:
      "ok: answered by the node; node_error: the node answered a JSON-RPC error; refused: refused by the proxy (method policy, the node's access rules, unreadable, too large); rate_limited: over the node's rate; unauthorized: wrong or missing credentials",
  });

const totals = { calls: callsByOutcome, total: z.number().int() };
// Bytes, and the calls answered without reaching a node: both kept per bucket and endpoint in usage_traffic.
const traffic = {
  bytesIn: z.number().int(),
  bytesOut: z.number().int(),
  cachedCalls: z.number().int().meta({
    description:
      'calls the node-proxy answered from its cache or its tracked head, without reaching a node (also counted in calls.ok and total); 0 before the proxy had a cache',
  }),
};

const usageReportShape = {
  granularity: z.enum(['minute', 'hour']),
  from: z.string(),
  to: z.string(),
  series: z
    .array(z.object({ time: z.string().meta({ description: 'start of the bucket' }), ...totals, ...traffic }))
    .meta({ description: 'every bucket of the range, oldest first, zeros included' }),
  methods: z.array(z.object({ method: z.string(), ...totals })).meta({
    description:
      "calls per method over the range, most called first. A method the platform's lists name (allowed or refused) is counted under its name, refused calls included; a name a refused prefix covers under the prefix (`personal_*`); any other name, and a request the proxy could not read, under `other`. `rest`, `management` and `unread` (refused before the body was read: wrong or missing credentials, over the rate, an address or Origin the access rules refuse; its method is not known) are buckets of their own",
  }),
  totals: z.object({ ...totals, ...traffic }),
};

/** The report of one endpoint, a node's or a pool's; a pool's usage answer may reuse these fields under its own id. */
export const endpointUsageShape = {
  ...usageReportShape,
  credentials: z
    .array(
      z.object({
        credentialId: z.string(),
        name: z.string().nullable().meta({ description: 'null for a credential removed since' }),
        kind: z.enum(['basic', 'token']).nullable().meta({ description: 'basic or token (a URL token); null for a credential removed since' }),
        ...totals,
      }),
    )
    .meta({
      description:
        "calls per named credential (Basic or URL token) over the range, most used first; calls with the owner's client access token (jwt nodes) and calls refused before credentials were checked are in no credential's count",
    }),
  members: z.array(z.object({ nodeId: z.string(), calls: z.number().int() })).meta({
    description:
      "a pool's calls over the range by the member node that served them, most first (a member removed since included; cached calls and calls no member answered are in none); empty for a node, whose calls through a pool are counted under the pool",
  }),
};

export const nodeUsageSchema = z.object({ nodeId: z.string(), ...endpointUsageShape }).meta({ id: 'NodeUsage' });

export const userUsageSchema = z
  .object({
    ...usageReportShape,
    nodes: z
      .array(z.object({ nodeId: z.string(), ...totals, ...traffic }))
      .meta({ description: 'totals per node or pool (its id `pool-…`) that had calls in the range' }),
  })
  .meta({ id: 'UserUsage' });
