import type { components as AccountsSchemas, paths as AccountsPaths } from './generated/accounts';
import type { components as NodesSchemas } from './generated/nodes';
import type { components as StakingSchemas } from './generated/staking';
import type { components as StreamsSchemas } from './generated/streams';

// Friendly names for the generated API shapes (src/generated, made from the services' OpenAPI
// documents): what SDK users import.

export type UserProfile = AccountsSchemas['schemas']['UserProfile'];
export type BillingAddress = AccountsSchemas['schemas']['BillingAddress'];
export type SignUpRequest = AccountsSchemas['schemas']['SignUpRequest'];
export type UpdateProfileRequest = AccountsSchemas['schemas']['UpdateProfileRequest'];
export type PasswordResetRequest = AccountsSchemas['schemas']['PasswordResetRequest'];
export type PasswordReset = AccountsSchemas['schemas']['PasswordReset'];
export type ClientKey = AccountsSchemas['schemas']['ClientKey'];
export type ClientKeySummary = AccountsSchemas['schemas']['ClientKeySummary'];
export type ClientTokens = AccountsSchemas['schemas']['ClientTokens'];
export type CloudEvent = AccountsSchemas['schemas']['Event'];
export type TwoFactorStatus = AccountsSchemas['schemas']['TwoFactorStatus'];
export type TwoFactorEnrolment = AccountsSchemas['schemas']['TwoFactorEnrolment'];
/** What a new password or turning two-factor login on ended: the client keys deleted, and every token issued before a time. */
export type EndedCredentials = AccountsSchemas['schemas']['EndedCredentials'];
/** `ended`, and `message` saying it in words. */
export type CredentialsEnded = AccountsSchemas['schemas']['PasswordResetDone'];
/** The recovery codes (shown once), what ended, and in words. */
export type TwoFactorConfirmation = Omit<AccountsSchemas['schemas']['RecoveryCodes'], 'accessToken'>;
export type EventsQuery = NonNullable<AccountsPaths['/users/me/events']['get']['parameters']['query']>;

export type ChainOption = NodesSchemas['schemas']['ChainOption'];
export type Node = NodesSchemas['schemas']['Node'];
export type NodeUsage = NodesSchemas['schemas']['NodeUsage'];
export type UserUsage = NodesSchemas['schemas']['UserUsage'];
/** Which usage buckets to read: defaults are the last hour by minute, or the last day by hour. */
export interface UsageQuery {
  from?: string;
  to?: string;
  granularity?: 'minute' | 'hour';
}
export type NodeState = Node['state'];
/** What a node last reported of its sync with its network: height, best known height, progress (0-1), peers, syncing. */
export type NodeSync = NonNullable<NodesSchemas['schemas']['NodeSync']>;
export type UserImage = ChainOption['image'];
/**
 * What creating a node takes; `large`, `jwt` and `txindex` (Bitcoin family, not on a pruned chain
 * option) default to false; `name`, your label for it, 1-64 printable characters (LIMITS), is optional.
 */
export type CreateNodeRequest = { image: UserImage; name?: string; large?: boolean; jwt?: boolean; txindex?: boolean };
/** A node's access rules, as the API answers them (normalised). */
export type NodeAccess = NodesSchemas['schemas']['NodeAccess'];
/** The rules to set, whole: a field left out is emptied (no list, the platform's rate). */
export type NodeAccessRequest = Partial<NodesSchemas['schemas']['NodeAccessRequest']>;
/** A node's credential as listed: a Basic user name (`kind: 'basic'`) or a URL token (`kind: 'token'`), never a secret. */
export type NodeCredential = NodesSchemas['schemas']['NodeCredential'];
/** A credential as created or rotated: with its password (Basic), or its token and the node's URLs carrying it; shown only then. */
export type NewNodeCredential = NodesSchemas['schemas']['NewNodeCredential'];
export type CredentialKind = NodeCredential['kind'];
/** A URL token's addresses: the node's endpoints with the token in them. */
export type NodeTokenUrls = NodesSchemas['schemas']['NodeTokenUrls'];
/** Where to call a node, as its record prints it. */
export type NodeEndpoints = NodesSchemas['schemas']['NodeEndpoints'];

/** One endpoint, with its own credentials and access rules, over several of your nodes of one image and network. `nodeUser`/`nodePass`: only in its creation answer. */
export type Pool = NodesSchemas['schemas']['Pool'];
/** A pool's member as its record shows it: the node's id, name, state and last sync reading. */
export type PoolMember = NodesSchemas['schemas']['PoolMember'];
/** What creating a pool takes: a name, 1-16 node ids of one image and network, and `maxLagBlocks` (default 5). */
export type CreatePoolRequest = NodesSchemas['schemas']['CreatePoolRequest'];
/** What a pool update changes: its name, its members (replaced as a whole) or its lag bound; one or more. */
export type UpdatePoolRequest = NodesSchemas['schemas']['UpdatePoolRequest'];
/** What deleting a pool answers. */
export type DeletedPool = NodesSchemas['schemas']['DeletedPool'];

export type Validator = StakingSchemas['schemas']['Validator'];
export type Registration = StakingSchemas['schemas']['Registration'];
export type StakingLimits = StakingSchemas['schemas']['StakingLimits'];
export type StakingNetwork = StakingSchemas['schemas']['StakingNetwork'];

/** A stream: a node's (or pool's) blocks or address activity delivered to your webhook. `secret`: only in the answers that create or rotate it. */
export type Stream = StreamsSchemas['schemas']['Stream'];
export type StreamKind = Stream['kind'];
/**
 * What creating a stream takes: the node or pool, the URL, and for `transactions` the addresses
 * (eth: and optional log topics); `kind` defaults to `blocks`, `fromHeight` (backfill) to the head.
 */
export type CreateStreamRequest = Omit<StreamsSchemas['schemas']['CreateStreamRequest'], 'kind'> & { kind?: StreamKind };
/** What a stream update changes: its name, its URL, or both. */
export type UpdateStreamRequest = StreamsSchemas['schemas']['UpdateStreamRequest'];
/** One delivery attempt of the log (or a test delivery): outcome, status code, latency, error. */
export type DeliveryAttempt = NonNullable<StreamsSchemas['schemas']['DeliveryAttempt']>;
/** An event as delivered (block, reorg, transaction, test), with its `id` (kept through retries and replays) and `seq`. */
export type StreamEvent = StreamsSchemas['schemas']['StreamEvent'];
/** What deleting a stream answers. */
export type DeletedStream = StreamsSchemas['schemas']['DeletedStream'];
