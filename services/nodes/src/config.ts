import { z } from 'zod';
import { apiServiceEnvironment, loadConfig, port, positiveInt } from '@cloud/config';
import { nodeRpcKeyEnvironment } from '@cloud/node-rpc-auth';

const optionalPath = z.string().min(1).optional();

/** Every variable the nodes service reads; `.env.example` at the repository root documents them. */
export const nodesEnvironment = apiServiceEnvironment.extend(nodeRpcKeyEnvironment.shape).extend({
  NODES_PORT: port(3002),
  NODES_HOST: z.string().default('127.0.0.1'),
  /** Where nodes run: `local` child processes, or `kubernetes` StatefulSets. */
  NODE_DRIVER: z.enum(['local', 'kubernetes']).default('local'),
  /** Nodes are reached at `<nodeId>.<NODE_DOMAIN>` through the node-proxy. */
  NODE_DOMAIN: z
    .string()
    .regex(/^(?=.{1,200}$)([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, 'a lower-case DNS name')
    .default('nodes.localhost'),
  /** The accounts service, whose JWKS verifies client tokens. */
  ACCOUNTS_URL: z.url().default('http://127.0.0.1:3001'),
  /** Nodes a user may have at once (provisioning, running or failed). */
  MAX_NODES_PER_USER: positiveInt(5),
  /** Names this instance in node leases; unset: a random id per process. Must differ between instances. */
  NODES_INSTANCE_ID: z.string().min(1).max(128).optional(),
  /** An instance that stops renewing its leases for this long loses its nodes to another instance. */
  NODE_LEASE_SECONDS: positiveInt(15),
  /** How often each node is checked against the driver (and leases renewed), besides bus wake-ups. */
  RECONCILE_INTERVAL_MS: positiveInt(2000),

  // --- the local driver ---
  /** Data directories of local nodes; unset: $DATA_DIR/nodes. */
  LOCAL_NODES_DIR: optionalPath,
  /** A block every this many seconds on local chains, so they move. */
  LOCAL_BLOCK_INTERVAL_SECONDS: positiveInt(5),
  LOCAL_ETH_CHAIN_ID: positiveInt(31337),
  /** anvil; unset: the @foundry-rs/anvil platform package, else `anvil` on PATH. */
  ANVIL_PATH: optionalPath,
  /** litecoind; unset: `litecoind` on PATH, else the dev chain runs ltc. */
  LITECOIND_PATH: optionalPath,
  /** Bitcoin Core's bitcoind for btc; unset: the dev chain runs btc. */
  BITCOIND_PATH: optionalPath,
  /** Bitcoin Cash Node's bitcoind for bch; unset: the dev chain runs bch. */
  BCHN_BITCOIND_PATH: optionalPath,
  /** avalanchego for validator nodes; unset: the dev chain's avalanche mode runs them. */
  AVALANCHEGO_PATH: optionalPath,
});

export type NodesConfig = z.infer<typeof nodesEnvironment>;

export function loadNodesConfig(env: NodeJS.ProcessEnv = process.env): NodesConfig {
  return loadConfig(nodesEnvironment, env);
}
