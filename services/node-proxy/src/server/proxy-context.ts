import type { Bus } from '@cloud/bus';
import type { Logger } from '@cloud/logging';
import type { Authenticator } from '../auth/authenticator';
import type { CallCache } from '../cache/call-cache';
import type { LoginThrottle } from '../auth/login-throttle';
import type { ProxyConfig } from '../config';
import type { Upstreams } from '../forwarding/upstreams';
import type { HeadTracker } from '../heads/head-tracker';
import type { MethodPolicy } from '../json-rpc/method-policy';
import type { ProxyMetrics } from '../metrics';
import type { MemberChoice } from '../pools/member-choice';
import type { MemberHealth } from '../pools/member-health';
import type { Family, ListenerName } from '../routing/interfaces';
import type { RouteSync } from '@cloud/bus';
import type { RouteTable } from '../routing/route-table';
import type { UsageMeter } from '../usage/usage-meter';
import type { RateLimiter } from './rate-limiter';

/** The parts every request handler of the proxy uses, built once by `createNodeProxy`. */
export interface ProxyContext {
  config: ProxyConfig;
  logger: Logger;
  bus: Bus;
  table: RouteTable;
  sync: RouteSync;
  auth: Authenticator;
  /** Wrong credentials per (node, client address). */
  throttle: LoginThrottle;
  limiter: RateLimiter;
  upstreams: Upstreams;
  /** The heads of nodes in use and of pool members, and the reorgs seen on them. */
  heads: HeadTracker;
  /** The pools' circuit breaker: which members are benched. */
  memberHealth: MemberHealth;
  /** Which member of a pool takes a call. */
  members: MemberChoice;
  /** Each family's method policy for real-network nodes; `.forNode(route.dev)` picks the dev one (made at load) for a dev node. */
  filters: Record<Family, MethodPolicy>;
  usage: UsageMeter;
  metrics: ProxyMetrics;
  /** The answer cache and the head answers; undefined when PROXY_CACHE_BYTES is 0. */
  cache: CallCache | undefined;
  /** The port each listener really listens on (they may be 0 in the configuration). */
  ports: Partial<Record<ListenerName, number>>;
}
