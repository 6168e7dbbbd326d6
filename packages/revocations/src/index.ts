export { RevocationSet } from './revocation-set';
export type { RevocationSetOptions } from './revocation-set';
