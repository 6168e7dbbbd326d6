export { ConfigError, loadConfig } from './load-config';
export { apiServiceEnvironment, booleanFlag, commonEnvironment, port, positiveInt } from './common';
export type { CommonEnvironment } from './common';
export { isBase64Key, readOrCreateKeyFile, readOrCreateSecretFile } from './secret-files';
export { nodeAddressEnvironment, publicNodeUrlProblem } from './node-addresses';
export type { NodeAddressEnvironment } from './node-addresses';
export { DEFAULT_MAX_ANSWER_BYTES } from './proxy-bounds';
