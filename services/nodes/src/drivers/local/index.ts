export { createLocalDriver, LocalDriver } from './local-driver';
export { localBinariesFromEnv } from './options';
export type { LocalBinaries, LocalDriverOptions, RestartPolicy } from './options';
