import { authRoutes } from './auth.routes';
import { clientKeysRoutes } from './client-keys.routes';
import { eventsRoutes } from './events.routes';
import { twoFactorRoutes } from './two-factor.routes';
import { usersRoutes } from './users.routes';

/** Every route of the accounts API, in the order of its OpenAPI document. */
export const accountsRoutes = [...usersRoutes, ...authRoutes, ...twoFactorRoutes, ...clientKeysRoutes, ...eventsRoutes];
