import { z } from 'zod';
import { apiServiceEnvironment, loadConfig, port, positiveInt } from '@cloud/config';
import { nodeRpcKeyEnvironment } from '@cloud/node-rpc-auth';

const optionalPath = z.string().min(1).optional();
const dnsLabel = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const dnsSubdomain = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
const labelSelector = z.string().regex(/^[A-Za-z0-9./_-]+=[A-Za-z0-9._-]*(,[A-Za-z0-9./_-]+=[A-Za-z0-9._-]*)*$/, 'key=value[,key=value]');

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

  // --- the kubernetes driver (credentials: the pod's service account, else KUBECONFIG or ~/.kube/config) ---
  /** Where nodes run: their StatefulSets, volumes, Secrets, Services and NetworkPolicies. */
  KUBE_NAMESPACE: z.string().regex(dnsLabel, 'a Kubernetes namespace name').default('cloud-nodes'),
  /** Storage class of the nodes' volumes; unset: the cluster's default. */
  KUBE_STORAGE_CLASS: z.string().regex(dnsSubdomain, 'a storage class name').optional(),
  /** Pods that may reach the nodes' RPC ports (the node-proxy), as key=value[,key=value]. */
  KUBE_PROXY_POD_SELECTOR: labelSelector.default('app.kubernetes.io/name=node-proxy'),
  /** Pods that may also reach validator nodes' RPC ports (the staking service reads the P-chain through them). */
  KUBE_STAKING_POD_SELECTOR: labelSelector.default('app.kubernetes.io/name=staking'),
  /** The namespace the node-proxy and staking pods run in; unset: KUBE_NAMESPACE. */
  KUBE_PLATFORM_NAMESPACE: z.string().regex(dnsLabel, 'a Kubernetes namespace name').optional(),
  /** Addresses bitcoind-family nodes take RPC calls from (-rpcallowip): the cluster's pod network, comma-separated. */
  KUBE_RPC_ALLOW_CIDRS: z
    .string()
    .default('10.0.0.0/8,172.16.0.0/12,192.168.0.0/16')
    .transform((value) => value.split(',').map((cidr) => cidr.trim()))
    .pipe(z.array(z.union([z.cidrv4(), z.cidrv6()])).min(1)),
  /** A destroyed node's volume is deleted this long after the rest of it; 0: at once. */
  KUBE_PVC_DELETE_GRACE_SECONDS: z.coerce.number().int().min(0).default(0),
  /** Every call to the Kubernetes API gives up after this long. */
  KUBE_REQUEST_TIMEOUT_MS: positiveInt(10_000),
  /** A node whose software is in CrashLoopBackOff after this many restarts is failed. */
  KUBE_CRASH_RESTARTS: positiveInt(5),
  /** A node no machine in the cluster can take for this long is failed. */
  KUBE_UNSCHEDULABLE_SECONDS: positiveInt(900),
});

export type NodesConfig = z.infer<typeof nodesEnvironment>;

export function loadNodesConfig(env: NodeJS.ProcessEnv = process.env): NodesConfig {
  return loadConfig(nodesEnvironment, env);
}
