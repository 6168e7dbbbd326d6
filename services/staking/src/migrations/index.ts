import { createOutbox } from '@cloud/bus';
import type { Migration } from '@cloud/db';
import { createValidators } from './20261123120000_create_validators';
import { addValidatorsDev } from './20261127120000_add_validators_dev';

/** The schema this service owns. */
export const STAKING_SCHEMA = 'staking';

/** Every migration of the staking schema; add new ones at the end. */
export const stakingMigrations: Migration[] = [createOutbox, createValidators, addValidatorsDev];
