export { BusUnavailableError, DEFAULT_RPC_TIMEOUT_MS, durableQueues } from './bus';
export type { BroadcastSubscription, Bus, DurableQueue, QueueSubscription, Subscription, Unsubscribe } from './bus';
export { busMetrics } from './dead-letter-metrics';
export { DEFAULT_RETRY_POLICY } from './dispatch';
export type { RetryPolicy } from './dispatch';
export { InProcessBus } from './in-process-bus';
export type { DeadLetter } from './in-process-bus';
export {
  CALL_EVENTS_PER_MESSAGE,
  callEventSchema,
  callEventsOf,
  decodeMessage,
  encodeMessage,
  MalformedMessageError,
  message,
  messageSchemas,
  METHOD_USAGE_PER_NODE,
  CREDENTIALS_COUNTED_PER_NODE,
  credentialUsageSchema,
  methodUsageSchema,
  memberUsageSchema,
  POOL_MEMBERS_MAX,
  poolOfRouteSchema,
  nodeAccessSchema,
  nodeCredentialSchema,
  nodeTokenSchema,
  nodeRouteSchema,
  nodeUsageSchema,
  packCallEvents,
  USAGE_OUTCOMES,
} from './messages';
export type { AnyBusMessage, BusMessage, MessageKind, NodeAccess, NodeRoute, Payload, PoolOfRoute, UsageOutcome } from './messages';
export { createOutbox, Outbox } from './outbox';
export type { OutboxOptions } from './outbox';
export { RabbitMqBus } from './rabbitmq-bus';
export type { RabbitMqBusOptions } from './rabbitmq-bus';
export { RpcError, rpcSchemas, RpcUnservedError } from './rpc';
export type { RpcHandler, RpcMethod, RpcReply, RpcRequest } from './rpc';
export { openBus } from './open-bus';
export type { BusSettings } from './open-bus';
export { SharedBusView } from './shared-bus-view';
export { WakeableTask } from './wakeable-task';
export { SnapshotLoader } from './snapshot-loader';
export type { SnapshotLoaderOptions } from './snapshot-loader';
export { RouteSync } from './route-sync';
export type { RouteSyncOptions, RouteTableLike } from './route-sync';
