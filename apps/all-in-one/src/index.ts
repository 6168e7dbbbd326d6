export { startPlatform } from './platform';
export type { RunningPlatform } from './platform';
