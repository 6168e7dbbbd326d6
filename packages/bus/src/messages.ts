import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { VALIDATOR_IMAGE_IDS } from '@cloud/chains';

const id = z.string().min(1).max(128);
const timestamp = z.iso.datetime({ offset: true });

/** The event record of one API call (spec: Event record). Never a body, a query, a secret or a token. */
export const callEventSchema = z.object({
  id: z.string().regex(/^event-[0-9a-f-]{36}$/),
  user: id,
  service: z.string().min(1).max(64),
  input: z.object({
    method: z.string().max(16).optional(),
    route: z.string().max(512).optional(),
    resourceId: z.string().max(256).optional(),
  }),
  output: z.object({
    startTime: timestamp,
    endTime: timestamp,
    httpStatusCode: z.number().int().min(100).max(599),
    bytesOut: z.number().int().nonnegative(),
  }),
  serviceData: z.object({
    requestId: z.string().max(128).optional(),
    /** The client marked the call as its own background read (x-cloud-background: 1), not an action of the person. */
    background: z.boolean().optional(),
  }),
  createdAt: timestamp,
});

const basicCredential = { user: z.string().min(1).max(128), passwordSha256: z.string().regex(/^[0-9a-f]{64}$/) };

/** One of a node's Basic credentials as the proxy checks it: its id (for usage), user name and hex SHA-256 of the password. */
export const nodeCredentialSchema = z.object({ id, ...basicCredential });

/**
 * One of a node's URL tokens as the proxy checks it: its id (for usage) and the hex SHA-256 of
 * the token (32 random bytes, so the hash cannot be reversed). The proxy routes a call by the
 * token alone: `https://<proxy>:<port>/<token>`.
 */
export const nodeTokenSchema = z.object({ id, tokenSha256: z.string().regex(/^[0-9a-f]{64}$/) });

/** A CIDR (IPv4 or IPv6), as the nodes service normalised it. */
const cidr = z.union([z.cidrv4(), z.cidrv6()]);
/** An origin as browsers send it: scheme, host and a port only when not the default. */
const origin = z
  .string()
  .max(256)
  .regex(/^https?:\/\/[a-z0-9.\-[\]:]+$/);

/**
 * What the owner of a node restricts on top of the platform's rules. An empty list restricts
 * nothing; `ratePerSecond` and `maxAnswerBytes` null: the operator's.
 */
export const nodeAccessSchema = z.object({
  ipAllowlist: z.array(cidr).max(100),
  originAllowlist: z.array(origin).max(100),
  /** Lower-case method names refused on top of the platform's policy. */
  refusedMethods: z.array(z.string().min(1).max(128)).max(200),
  ratePerSecond: z.number().int().positive().nullable(),
  /** Largest answer the proxy passes on from the node, in bytes; null (or absent, from a service before it): the operator's. */
  maxAnswerBytes: z.number().int().positive().nullable().default(null),
});

export type NodeAccess = z.infer<typeof nodeAccessSchema>;

/** Most nodes in one pool. */
export const POOL_MEMBERS_MAX = 16;

export const poolOfRouteSchema = z.object({
  members: z.array(id).max(POOL_MEMBERS_MAX),
  maxLagBlocks: z.number().int().min(0).max(10_000),
});

export type PoolOfRoute = z.infer<typeof poolOfRouteSchema>;

/**
 * Everything the node-proxy needs to route and authenticate calls to a node, at one revision of
 * it. Every `node.*` message carries it, and the nodes service's `nodes.routes` snapshot lists it,
 * so a proxy replica builds its routing table from the bus alone.
 */
export const nodeRouteSchema = z.object({
  nodeId: id,
  userId: id,
  /** The image the node was created from (btc, ltc, eth, ...): which ports the proxy serves it on. */
  image: z.string().min(1).max(64),
  chain: z.string().min(1).max(64),
  /** Increases with every change of the node, so a consumer can drop a message older than what it holds. */
  revision: z.number().int().nonnegative(),
  /** Runs on a private dev chain (regtest, anvil, the dev chain), not its image's network; absent: false. */
  dev: z.boolean().optional(),
  /** `syncing`: the node answers (calls are forwarded) but is still catching up with its network. */
  state: z.enum(['provisioning', 'syncing', 'running', 'failed', 'stopping', 'stopped', 'deleting', 'deleted']),
  /**
   * The node's Basic credentials as the proxy checks them: the user name and the hex SHA-256 of
   * the password (32 random bytes, so the hash cannot be reversed). Null for a `jwt` node, which
   * takes its owner's client access token instead.
   */
  basic: z.object(basicCredential).nullable(),
  /**
   * Base URL of the node's own RPC (and REST and WebSocket) inside the platform, known once it
   * runs; null before. The proxy adds the node's internal credentials, which it derives itself
   * (`@cloud/node-rpc-auth`), so no node password travels on the bus.
   */
  upstream: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable(),
  /**
   * Every Basic credential the node takes (`basic` is the first of them, for a replica that
   * predates the list). Absent in a message from before several credentials: `basic` alone,
   * as the credential `default`.
   */
  credentials: z.array(nodeCredentialSchema).max(100).optional(),
  /**
   * The node's URL tokens. Absent: none (a message from before them). A Basic node may have only
   * tokens, so `basic` is null while this is not empty; a jwt node has none.
   */
  tokens: z.array(nodeTokenSchema).max(100).optional(),
  /** Its owner's access rules (`docs/decisions/018-node-access-rules.md`); absent: none. */
  access: nodeAccessSchema.optional(),
  /**
   * Present on a pool's route only (`pool.*` messages): the route is an endpoint over these nodes
   * of the owner's, all of the route's image and dev flag; `upstream` is null. A call goes to a
   * member that runs, is not syncing and is at most `maxLagBlocks` behind the best member's head.
   */
  pool: poolOfRouteSchema.optional(),
});

export type NodeRoute = z.infer<typeof nodeRouteSchema>;

/**
 * What a call to a node ended as, for usage: forwarded and answered (`ok`), answered by the node
 * with a JSON-RPC error (`node_error`), refused by the proxy (method policy, unreadable or too
 * large), over the node's rate, or with wrong or missing credentials.
 */
export const USAGE_OUTCOMES = ['ok', 'node_error', 'refused', 'rate_limited', 'unauthorized'] as const;
export type UsageOutcome = (typeof USAGE_OUTCOMES)[number];

/**
 * Calls of one method bucket with one outcome. `method` is a name the family's method lists have
 * (lower case; refused calls too), a refused prefix (`personal_*`), a name the node's owner
 * refused, or one of the proxy's fixed buckets (`other` for any other name, `rest`, `management`,
 * `unread`), so the set stays bounded. A later dimension (the credential used) is a further optional key.
 */
export const methodUsageSchema = z.object({
  method: z.string().min(1).max(128),
  outcome: z.enum(USAGE_OUTCOMES),
  calls: z.number().int().positive(),
});

/** Most method entries of one node in one `node.usage` message. */
export const METHOD_USAGE_PER_NODE = 5000;

/** Calls made with one named Basic credential of the node, with one outcome. */
export const credentialUsageSchema = z.object({
  credentialId: id,
  outcome: z.enum(USAGE_OUTCOMES),
  calls: z.number().int().positive(),
});

/** Most credentials of one node counted in one interval (a node has at most 100 at a time). */
export const CREDENTIALS_COUNTED_PER_NODE = 200;

/** Calls of a pool one of its members served (a member since removed is still counted). */
export const memberUsageSchema = z.object({
  nodeId: id,
  calls: z.number().int().positive(),
});

/** Request and byte counts of one node over an interval at one proxy replica. */
export const nodeUsageSchema = z.object({
  nodeId: id,
  userId: id,
  requests: z.number().int().nonnegative(),
  /** Requests (or batch elements) refused by the method filter. */
  blocked: z.number().int().nonnegative(),
  bytesIn: z.number().int().nonnegative(),
  bytesOut: z.number().int().nonnegative(),
  /** Calls by method and outcome (added later: a message from an older proxy has none). */
  calls: z.array(methodUsageSchema).max(METHOD_USAGE_PER_NODE).default([]),
  /** Calls by named credential and outcome (none for client access tokens; absent from older proxies). */
  credentials: z
    .array(credentialUsageSchema)
    .max(CREDENTIALS_COUNTED_PER_NODE * USAGE_OUTCOMES.length)
    .default([]),
  /** Calls the proxy answered from its cache or its tracked head, without the node (counted in `calls` too; absent from older proxies). */
  cachedCalls: z.number().int().nonnegative().default(0),
  /** A pool's calls by the member node that served them (absent for a node, and from older proxies). */
  members: z
    .array(memberUsageSchema)
    .max(POOL_MEMBERS_MAX * 4)
    .default([]),
});

/**
 * Every kind of message on the bus and the schema of its payload. The kind is the routing key,
 * so consumers bind to a kind or a pattern (`revocation.*`). A payload is checked against its
 * schema when it is received; one that fails goes to the dead-letter queue.
 */
export const messageSchemas = {
  'call.recorded': callEventSchema,
  /**
   * Several call events in one message: the outbox relay packs consecutive `call.recorded` rows
   * this way, since the broker's cost is per message, not per byte.
   */
  'call.recorded-batch': z.object({ events: z.array(callEventSchema).min(1).max(1000) }),
  /** A client key was deleted: its client and refresh tokens die. */
  'revocation.client-key-deleted': z.object({ userId: id, clientId: id }),
  /** The password changed: every token with an older credentials version dies. */
  'revocation.credentials-changed': z.object({ userId: id, credentialsVersion: z.number().int().nonnegative() }),
  /** The user was deleted: every token of theirs dies. */
  'revocation.user-deleted': z.object({ userId: id }),
  /** A node was asked for: the nodes service's reconcilers wake up to provision it. */
  'node.created': nodeRouteSchema,
  /**
   * The node answers its RPC at `address` (through the node-proxy). Sent again, at a new
   * revision, when its upstream moves (another instance took it over).
   */
  'node.running': nodeRouteSchema.extend({ address: z.string().min(1).max(253) }),
  /**
   * The node answers its RPC at `address` but is still catching up with its network (initial
   * block download); `node.running` follows once it has. Sent again when its upstream moves.
   */
  'node.syncing': nodeRouteSchema.extend({ address: z.string().min(1).max(253) }),
  /** The driver gave up on the node. */
  'node.failed': nodeRouteSchema.extend({ reason: z.string().max(1000) }),
  /** The user asked to stop (or restart, or resize) the node: stop routing to it; the reconcilers stop it, keeping its data. */
  'node.stopping': nodeRouteSchema,
  /** The node is stopped: its data, credentials and address are kept until it is started or deleted. */
  'node.stopped': nodeRouteSchema,
  /** The node is starting again (started, restarted or resized): `provisioning` until `node.running` names its new upstream. */
  'node.starting': nodeRouteSchema,
  /** The node's Basic credentials changed (one added or revoked): those no longer listed stop working. */
  'node.credentials-changed': nodeRouteSchema,
  /** Its owner changed the node's access rules (`access`). */
  'node.access-changed': nodeRouteSchema,
  /** The user asked to delete the node: stop routing to it; the reconcilers take it down. */
  'node.deleting': nodeRouteSchema,
  /** The node and its data are gone. */
  'node.deleted': nodeRouteSchema,
  /** A pool was created or changed (members, credentials, access rules, name): its route at a new revision, with `pool`. */
  'pool.changed': nodeRouteSchema.extend({ pool: poolOfRouteSchema }),
  /** The pool is gone (state `deleted`): stop routing to it. */
  'pool.deleted': nodeRouteSchema,
  /**
   * The staking service created a validator: the nodes service creates its node, under this id,
   * for this user, from a validator image (`avalanchefuji`), with these Basic credentials (the
   * user was shown the password once). The node's staking key is not here: the driver asks the
   * staking service for it (`staking.validator-tls`) when it starts the node, so no private key is
   * ever persisted on the broker.
   */
  'validator.created': z.object({
    nodeId: id,
    userId: id,
    image: z.enum(VALIDATOR_IMAGE_IDS),
    basic: z.object({ user: z.string().min(1).max(128), passwordSha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  }),
  /** The user deleted the validator (its stake was not locked): the nodes service deletes its node. */
  'validator.deleted': z.object({ nodeId: id, userId: id }),
  /**
   * Calls to nodes counted by one node-proxy replica over `[from, to)`: one message per interval
   * for all the nodes it served (or per 1000 nodes), never one per call. The message id is made
   * once per interval and kept when the proxy publishes it again, so a consumer counts it once.
   */
  'node.usage': z.object({
    proxyId: id,
    from: timestamp,
    to: timestamp,
    nodes: z.array(nodeUsageSchema).min(1).max(1000),
  }),
} as const;

export type MessageKind = keyof typeof messageSchemas;
export type Payload<K extends MessageKind> = z.infer<(typeof messageSchemas)[K]>;

/** What travels on the bus: the id consumers de-duplicate on, the kind, and the payload. */
export interface BusMessage<K extends MessageKind = MessageKind> {
  id: string;
  kind: K;
  occurredAt: string;
  payload: Payload<K>;
}

/** A message of any kind, narrowed by `kind`. */
export type AnyBusMessage = { [K in MessageKind]: BusMessage<K> }[MessageKind];

export function message<K extends MessageKind>(kind: K, payload: Payload<K>, occurredAt = new Date()): BusMessage<K> {
  return { id: `msg-${randomUUID()}`, kind, occurredAt: occurredAt.toISOString(), payload };
}

const envelopeSchema = z.object({ id, kind: z.string(), occurredAt: timestamp, payload: z.unknown() });

export class MalformedMessageError extends Error {}

/** Parses a received body (JSON text) into a message, checking the payload against its kind's schema. */
export function decodeMessage(body: string): AnyBusMessage {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new MalformedMessageError('the body is not JSON');
  }
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) throw new MalformedMessageError(`bad envelope: ${z.prettifyError(envelope.error)}`);
  const { kind } = envelope.data;
  if (!Object.hasOwn(messageSchemas, kind)) throw new MalformedMessageError(`unknown message kind ${kind}`);
  const payload = messageSchemas[kind as MessageKind].safeParse(envelope.data.payload);
  if (!payload.success) throw new MalformedMessageError(`bad ${kind} payload: ${z.prettifyError(payload.error)}`);
  return { ...envelope.data, payload: payload.data } as AnyBusMessage;
}

export function encodeMessage(message: BusMessage): string {
  return JSON.stringify(message);
}

/** The most call events packed into one `call.recorded-batch` message. */
export const CALL_EVENTS_PER_MESSAGE = 200;

/**
 * Packs runs of consecutive `call.recorded` messages into `call.recorded-batch` messages of up to
 * CALL_EVENTS_PER_MESSAGE events, keeping every other message and the order. A single event stays
 * as it is. Consumers de-duplicate on the event id, so a batch may be packed differently when
 * republished.
 */
export function packCallEvents(messages: readonly BusMessage[]): BusMessage[] {
  const packed: BusMessage[] = [];
  let run: BusMessage<'call.recorded'>[] = [];
  const flush = () => {
    if (run.length === 1) packed.push(...run);
    if (run.length > 1) packed.push(message('call.recorded-batch', { events: run.map((event) => event.payload) }, new Date(run[0]!.occurredAt)));
    run = [];
  };
  for (const each of messages) {
    if (each.kind !== 'call.recorded') {
      flush();
      packed.push(each);
      continue;
    }
    run.push(each as BusMessage<'call.recorded'>);
    if (run.length === CALL_EVENTS_PER_MESSAGE) flush();
  }
  flush();
  return packed;
}

/** The call events a message carries: one, several, or none for other kinds. */
export function callEventsOf(message: AnyBusMessage): Payload<'call.recorded'>[] {
  if (message.kind === 'call.recorded') return [message.payload];
  if (message.kind === 'call.recorded-batch') return message.payload.events;
  return [];
}

/** Whether a binding pattern (`revocation.*`, `call.recorded`, `#`) takes a kind, as an AMQP topic exchange does. */
export function patternMatches(pattern: string, kind: string): boolean {
  const match = (p: string[], k: string[]): boolean => {
    if (p.length === 0) return k.length === 0;
    const [head, ...rest] = p;
    if (head === '#') return match(rest, k) || (k.length > 0 && match(p, k.slice(1)));
    if (k.length === 0) return false;
    return (head === '*' || head === k[0]) && match(rest, k.slice(1));
  };
  return match(pattern.split('.'), kind.split('.'));
}
