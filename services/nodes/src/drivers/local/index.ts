export { createLocalDriver, LocalDriver } from './local-driver';
export type { LivenessPolicy, LocalBinaries, LocalDriverOptions, RestartPolicy } from './options';
