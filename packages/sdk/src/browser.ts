// The SDK without what needs Node (calls to hosted nodes through the node-proxy use node:https):
// the three APIs and the session, for browsers (the web console).
export { DEFAULT_URLS, PlatformClient, isValidatorImage } from './platform-client';
export type { PlatformClientOptions } from './platform-client';
export * from './errors';
export { BACKGROUND_HEADER } from './http';
export { LIMITS } from './generated/limits';
export { curlLine, harmlessCall, imageFamily, readyLines, shellWord, tokenUrls, urlWithPath } from './ready-lines';
export type { InterfaceUrls, NodeFamily, ReadyCredential, ReadyEndpoints, ReadyLine, ReadyLinesOptions, TokenUrls } from './ready-lines';
export type { LoginOptions, Session } from './session';
export { tokenExpiry } from './session';
export type { SyncProgress, WaitOptions } from './wait';
export { poolHealth } from './pool-health';
export type { MemberHealth, PoolHealth, PoolMemberReading } from './pool-health';
export { NO_PEERS_GRACE_MS, peersSetting, syncPercent, syncWords } from './sync-words';
export type { SyncReading, SyncSubject, SyncWords, SyncWordsOptions } from './sync-words';
export type * from './types';
