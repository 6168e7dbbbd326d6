import type { BillingAddress, User } from '../data-access/users.repository';

/** The user profile of spec section 2 (GET /users/me): exactly these fields, and whether two-factor login is on. */
export interface Profile {
  id: string;
  email: string;
  displayName: string;
  entityType: string;
  verifiedAt: string | null;
  createdAt: string;
  updatedAt: string;
  billingAddress: BillingAddress;
  twoFactor: boolean;
}

export const EMPTY_BILLING_ADDRESS: BillingAddress = { country: '', zipCode: '', address: '', state: '' };

export function toProfile(user: User): Profile {
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    entityType: user.entityType,
    verifiedAt: user.verifiedAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
    billingAddress: { ...EMPTY_BILLING_ADDRESS, ...user.billingAddress },
    twoFactor: user.twoFactorEnabledAt !== null,
  };
}
