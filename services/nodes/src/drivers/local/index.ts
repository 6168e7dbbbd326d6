export { createLocalDriver, LocalDriver } from './local-driver';
export type { LocalBinaries, LocalDriverOptions, RestartPolicy } from './options';
