export { CloudClient, DEFAULT_URLS, avalancheApiPath, isValidatorImage } from './client';
export type { CloudClientOptions } from './client';
export * from './errors';
export type { LoginOptions, Session } from './session';
export { tokenExpiry } from './session';
export type { NodeCallOptions } from './node-rpc';
export type { SyncProgress, WaitOptions } from './wait';
export type * from './types';
