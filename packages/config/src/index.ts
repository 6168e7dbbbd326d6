export { ConfigError, loadConfig } from './load-config';
export { booleanFlag, commonEnvironment, port, positiveInt } from './common';
export type { CommonEnvironment } from './common';
export { readOrCreateSecretFile } from './secret-files';
