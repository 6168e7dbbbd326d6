import type { components as AccountsSchemas, paths as AccountsPaths } from './generated/accounts';
import type { components as NodesSchemas } from './generated/nodes';
import type { components as StakingSchemas } from './generated/staking';

// Friendly names for the generated API shapes (src/generated, made from the services' OpenAPI
// documents): what SDK users import.

export type UserProfile = AccountsSchemas['schemas']['UserProfile'];
export type BillingAddress = AccountsSchemas['schemas']['BillingAddress'];
export type SignUpRequest = AccountsSchemas['schemas']['SignUpRequest'];
export type UpdateProfileRequest = AccountsSchemas['schemas']['UpdateProfileRequest'];
export type ClientKey = AccountsSchemas['schemas']['ClientKey'];
export type ClientKeySummary = AccountsSchemas['schemas']['ClientKeySummary'];
export type ClientTokens = AccountsSchemas['schemas']['ClientTokens'];
export type CloudEvent = AccountsSchemas['schemas']['Event'];
export type EventsQuery = NonNullable<AccountsPaths['/users/me/events']['get']['parameters']['query']>;

export type ChainOption = NodesSchemas['schemas']['ChainOption'];
export type Node = NodesSchemas['schemas']['Node'];
export type NodeState = Node['state'];
export type UserImage = ChainOption['image'];
/** What creating a node takes; `large` and `jwt` default to false. */
export type CreateNodeRequest = { image: UserImage; large?: boolean; jwt?: boolean };

export type Validator = StakingSchemas['schemas']['Validator'];
export type Registration = StakingSchemas['schemas']['Registration'];
export type StakingLimits = StakingSchemas['schemas']['StakingLimits'];
export type StakingNetwork = StakingSchemas['schemas']['StakingNetwork'];
