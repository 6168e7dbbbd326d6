/** One limit of a staking network, with where its value comes from. */
interface Sourced {
  text: string;
  source: string;
}

export interface StakingLimits {
  chain: string;
  network: string;
  /** The token stakes are counted in (1 AVAX = 10^9 nAVAX). */
  token: 'AVAX';
  minimumStake: Sourced & { avax: number };
  minimumStakeDuration: Sourced & { seconds: number };
  maximumStakeDuration: Sourced & { seconds: number };
  /** Weight is the validator's own stake plus every stake delegated to it. */
  maximumWeight: Sourced & { avax: number; ownStakeFactor: number; includesDelegations: true };
}

const HOUR = 3600;
const DAY = 24 * HOUR;
const SPEC = 'interface spec §8 (Limits), main network';
const FUJI_GENESIS = 'avalanchego genesis/genesis_fuji.go, FujiParams.StakingConfig';
// A constant of the P-chain VM, not of a network's genesis: the same on every network.
const WEIGHT_FACTOR_SOURCE = 'avalanchego vms/platformvm/txs/executor (MaxValidatorWeightFactor = 5, every network)';

const maximumWeight = (avax: number, source: string): StakingLimits['maximumWeight'] => ({
  avax,
  ownStakeFactor: 5,
  includesDelegations: true,
  text: `the lesser of ${avax.toLocaleString('en-US')} AVAX and 5 times the validator's own stake; weight is the own stake plus all stake delegated to it`,
  source,
});

/**
 * The staking limits of each network (spec section 8). The spec gives the main network's; the
 * test network's (Fuji) come from avalanchego's genesis configuration for Fuji: MinValidatorStake
 * 1 AVAX, MaxValidatorStake 3,000,000 AVAX, MinStakeDuration 24 hours, MaxStakeDuration 365 days.
 */
export const STAKING_LIMITS: Record<string, Record<string, StakingLimits>> = {
  avalanche: {
    mainnet: {
      chain: 'avalanche',
      network: 'mainnet',
      token: 'AVAX',
      minimumStake: { avax: 2000, text: '2,000 AVAX', source: SPEC },
      minimumStakeDuration: { seconds: 14 * DAY, text: '2 weeks', source: SPEC },
      maximumStakeDuration: { seconds: 365 * DAY, text: '1 year (365 days)', source: SPEC },
      maximumWeight: maximumWeight(3_000_000, SPEC),
    },
    fuji: {
      chain: 'avalanche',
      network: 'fuji',
      token: 'AVAX',
      minimumStake: { avax: 1, text: '1 AVAX', source: `${FUJI_GENESIS}.MinValidatorStake (also spec §8)` },
      minimumStakeDuration: { seconds: 24 * HOUR, text: '24 hours', source: `${FUJI_GENESIS}.MinStakeDuration (also spec §8)` },
      maximumStakeDuration: { seconds: 365 * DAY, text: '365 days', source: `${FUJI_GENESIS}.MaxStakeDuration` },
      maximumWeight: maximumWeight(3_000_000, `${FUJI_GENESIS}.MaxValidatorStake; factor: ${WEIGHT_FACTOR_SOURCE}`),
    },
  },
};
