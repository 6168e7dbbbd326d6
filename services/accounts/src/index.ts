export { ACCOUNTS_SERVICE_NAME, createAccountsApp } from './app';
export type { AccountsApp, AccountsAppDependencies } from './app';
export { accountsEnvironment, loadAccountsConfig } from './config';
export type { AccountsConfig } from './config';
export { createAccountsService } from './service';
export type { AccountsService, AccountsServiceOptions } from './service';
export { EventsRepository } from './data-access/events.repository';
export { consumeCallEvents } from './entry-points/messages/call-events.consumer';
export { accountsMigrations, ACCOUNTS_SCHEMA } from './migrations';
