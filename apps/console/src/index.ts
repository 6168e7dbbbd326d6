export { apiOrigins, createConsoleApp, DEFAULT_WEB_ROOT } from './server';
export type { ConsoleServerSettings, ConsoleSettings } from './settings';
export { consoleEnvironment, consoleSettings, loadConsoleConfig } from './config';
export type { ConsoleConfig } from './config';
