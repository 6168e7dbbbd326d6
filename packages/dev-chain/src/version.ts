import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const DEV_CHAIN_NAME = 'Cloud Dev Chain';

/** The package's version, read from package.json, one level above both src/ and dist/. */
export const DEV_CHAIN_VERSION = (JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;

/** The software label a client sees, as in getnetworkinfo's subversion: `/CloudDevChain:0.1.0/`. */
export function devChainSubversion(): string {
  return `/CloudDevChain:${DEV_CHAIN_VERSION}/`;
}
