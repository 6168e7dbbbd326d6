import { z } from 'zod';
import { apiServiceEnvironment, booleanFlag, DEFAULT_MAX_ANSWER_BYTES, loadConfig, nodeAddressEnvironment, port, positiveInt } from '@cloud/config';
import { nodeRpcKeyEnvironment } from '@cloud/node-rpc-auth';
import type { ImageId } from '@cloud/chains';

const optionalPath = z.string().min(1).optional();
const dnsLabel = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const dnsSubdomain = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
// host:port, host a DNS name, an IPv4 address or a bracketed IPv6 address.
const peerAddress = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}$/;
const peerList = z
  .string()
  .transform((value) => (value.trim() === 'none' ? [] : value.split(',').map((peer) => peer.trim())))
  .refine((peers) => peers.every((peer) => peerAddress.test(peer)), 'host:port[,host:port], or none')
  .optional();

/**
 * `<IMAGE>_PEERS` (LTC_PEERS, BTCTESTNET_PEERS, ...): the only peers local nodes of that image
 * connect to (`-connect`), or `none` for no peers at all; unset: the network's own discovery.
 * This is how a private network is hosted: its nodes follow the chain of the peers given.
 */
function peerSettings() {
  return Object.fromEntries(PEER_IMAGES.map((image) => [peersVariable(image), peerList])) as Record<`${Uppercase<PeerImage>}_PEERS`, typeof peerList>;
}

export const PEER_IMAGES = ['btc', 'bch', 'ltc', 'btctestnet', 'bchtestnet'] as const satisfies readonly ImageId[];
export type PeerImage = (typeof PEER_IMAGES)[number];

export function peersVariable<I extends PeerImage>(image: I): `${Uppercase<I>}_PEERS` {
  return `${image.toUpperCase() as Uppercase<I>}_PEERS`;
}

const labelSelector = z.string().regex(/^[A-Za-z0-9./_-]+=[A-Za-z0-9._-]*(,[A-Za-z0-9./_-]+=[A-Za-z0-9._-]*)*$/, 'key=value[,key=value]');

/** Every variable the nodes service reads; `.env.example` at the repository root documents them. */
export const nodesEnvironment = apiServiceEnvironment
  .extend(nodeRpcKeyEnvironment.shape)
  .extend(nodeAddressEnvironment.shape)
  .extend({
    NODES_PORT: port(3002),
    NODES_HOST: z.string().default('127.0.0.1'),
    /** Where nodes run: `local` child processes, or `kubernetes` StatefulSets. */
    NODE_DRIVER: z.enum(['local', 'kubernetes']).default('local'),
    /** The accounts service, whose JWKS verifies client tokens. */
    ACCOUNTS_URL: z.url().default('http://127.0.0.1:3001'),
    /** Nodes a user may have at once (provisioning, running or failed). */
    MAX_NODES_PER_USER: positiveInt(5),
    /** Pools a user may have at once (issue 31). */
    MAX_POOLS_PER_USER: positiveInt(20),
    /** Named Basic credentials a node may have at once. */
    MAX_CREDENTIALS_PER_NODE: positiveInt(10),
    /** The node-proxy's rate per node (its PROXY_RATE_PER_SECOND): an owner's `ratePerSecond` may not be above it. */
    NODE_MAX_RATE_PER_SECOND: positiveInt(100),
    /** The node-proxy's answer bound (its PROXY_MAX_ANSWER_BYTES): an owner's `maxAnswerBytes` may not be above it. */
    NODE_MAX_ANSWER_BYTES: positiveInt(DEFAULT_MAX_ANSWER_BYTES),
    /** Names this instance in node leases; unset: a random id per process. Must differ between instances. */
    NODES_INSTANCE_ID: z.string().min(1).max(128).optional(),
    /** An instance that stops renewing its leases for this long loses its nodes to another instance. */
    NODE_LEASE_SECONDS: positiveInt(15),
    /** How often each node is checked against the driver (and leases renewed), besides bus wake-ups. */
    RECONCILE_INTERVAL_MS: positiveInt(2000),
    /**
     * false: a stopped service leaves its nodes running, and the next start (or another instance)
     * adopts them; only a node's owner or its deletion stops a node. true: the local driver's nodes
     * stop with the service (their data kept). Kubernetes nodes run on either way.
     */
    STOP_NODES_ON_SHUTDOWN: booleanFlag(false),

    // --- usage (the node-proxy's counts, in time buckets) ---
    /** Minute buckets are kept this long; a `node.usage` message older than this is dropped (its id is forgotten by then). */
    USAGE_MINUTE_RETENTION_HOURS: positiveInt(24),
    /** Hour buckets are kept this long. */
    USAGE_HOUR_RETENTION_DAYS: positiveInt(90),
    /** How often old buckets are deleted. */
    USAGE_RETENTION_INTERVAL_MS: positiveInt(600_000),

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
    /**
     * `dev`: Bitcoin-family daemons run private regtest chains (nodes say `dev: true`); `public`: they
     * run the network their image names (ltc: Litecoin mainnet, btctestnet/bchtestnet: testnet4).
     * Images without their real software run on the dev chain (or anvil) either way, and say so.
     */
    LOCAL_NETWORKS: z.enum(['dev', 'public']).default('dev'),
    /** Public-network nodes keep at most this many MB of blocks (-prune); 0: the whole chain. Bitcoin Core's least is 550. */
    LOCAL_PRUNE_MB: z.coerce
      .number()
      .int()
      .refine((mb) => mb === 0 || mb >= 550, '0 (no pruning) or at least 550 (MB)')
      .default(10_000),
    ...peerSettings(),

    // --- the kubernetes driver (credentials: the pod's service account, else KUBECONFIG or ~/.kube/config) ---
    /** Where nodes run: their StatefulSets, volumes, Secrets, Services and NetworkPolicies. */
    KUBE_NAMESPACE: z.string().regex(dnsLabel, 'a Kubernetes namespace name').default('cloud-nodes'),
    /** Storage class of the nodes' volumes; unset: the cluster's default. */
    KUBE_STORAGE_CLASS: z.string().regex(dnsSubdomain, 'a storage class name').optional(),
    /** Pods that may reach the nodes' RPC ports (the node-proxy), as key=value[,key=value]. */
    KUBE_PROXY_POD_SELECTOR: labelSelector.default('app.kubernetes.io/name=node-proxy'),
    /** Pods that may also reach validator nodes' RPC ports (the staking service reads the P-chain through them). */
    KUBE_STAKING_POD_SELECTOR: labelSelector.default('app.kubernetes.io/name=staking'),
    /** Pods that may also reach Ethereum- and Bitcoin-family nodes' RPC ports (the streams service follows their chains). */
    KUBE_STREAMS_POD_SELECTOR: labelSelector.default('app.kubernetes.io/name=streams'),
    /** Pods of this service, which read every node's sync status at its RPC port. */
    KUBE_NODES_POD_SELECTOR: labelSelector.default('app.kubernetes.io/name=nodes'),
    /** The namespace the node-proxy, staking, streams and nodes pods run in; unset: KUBE_NAMESPACE. */
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
