import { z } from 'zod';
import { apiServiceEnvironment, isBase64Key, loadConfig, nodeAddressEnvironment, port, positiveInt } from '@cloud/config';
import { nodeRpcKeyEnvironment } from '@cloud/node-rpc-auth';

/** Every variable the staking service reads; `.env.example` at the repository root documents them. */
export const stakingEnvironment = apiServiceEnvironment
  .extend(nodeRpcKeyEnvironment.shape)
  .extend(nodeAddressEnvironment.shape)
  .extend({
    STAKING_PORT: port(3003),
    STAKING_HOST: z.string().default('127.0.0.1'),
    /** The accounts service, whose JWKS verifies client tokens. */
    ACCOUNTS_URL: z.url().default('http://127.0.0.1:3001'),
    /** Key encrypting validators' staking keys at rest: base64 of 32 bytes. Unset: STAKING_KEY_ENCRYPTION_KEY_FILE. */
    STAKING_KEY_ENCRYPTION_KEY: z.string().refine(isBase64Key, 'must be the base64 of exactly 32 bytes (openssl rand -base64 32)').optional(),
    /** File holding that key (base64 of 32 bytes); unset: generated once as $DATA_DIR/keys/staking-encryption.key. */
    STAKING_KEY_ENCRYPTION_KEY_FILE: z.string().min(1).optional(),
    /** Validators a user may have at once, over every network. */
    MAX_VALIDATORS_PER_USER: positiveInt(5),
    /** How long a validator's P-chain answer is reused before the node is asked again. */
    STAKING_STATUS_CACHE_MS: positiveInt(10_000),
    /** How long a validator node may take to answer a P-chain question before its status is `unknown`. */
    STAKING_NODE_TIMEOUT_MS: positiveInt(3_000),
  })
  .superRefine((env, ctx) => {
    if (env.STAKING_KEY_ENCRYPTION_KEY !== undefined && env.STAKING_KEY_ENCRYPTION_KEY_FILE !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['STAKING_KEY_ENCRYPTION_KEY'], message: 'set it or STAKING_KEY_ENCRYPTION_KEY_FILE, not both' });
    }
  });

export type StakingConfig = z.infer<typeof stakingEnvironment>;

export function loadStakingConfig(env: NodeJS.ProcessEnv = process.env): StakingConfig {
  return loadConfig(stakingEnvironment, env);
}
