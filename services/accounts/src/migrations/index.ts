import { createOutbox } from '@cloud/bus';
import type { Migration } from '@cloud/db';
import { createUsers } from './20261122000100_create_users';
import { createClientKeys } from './20261122000200_create_client_keys';
import { createEvents } from './20261122000300_create_events';
import { createLoginThrottle } from './20261122000400_create_login_throttle';
import { createRevocations } from './20261122000500_create_revocations';
import { addTwoFactor } from './20261125000100_add_two_factor';
import { createPasswordResets } from './20261125100000_create_password_resets';

/** The schema this service owns. */
export const ACCOUNTS_SCHEMA = 'accounts';

/** Every migration of the accounts schema; add new ones at the end. */
export const accountsMigrations: Migration[] = [
  createUsers,
  createClientKeys,
  createEvents,
  createLoginThrottle,
  createRevocations,
  createOutbox,
  addTwoFactor,
  createPasswordResets,
];
