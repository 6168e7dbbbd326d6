export { run } from './program';
export type { CliIo } from './context';
