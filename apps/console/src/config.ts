import { commonEnvironment, loadConfig, port } from '@cloud/config';
import { z } from 'zod';
import type { ConsoleServerSettings } from './settings';

/** The console served alone (its image, `npm start -w apps/console`), configured by the environment. */
export const consoleEnvironment = commonEnvironment.pick({ NODE_ENV: true, LOG_LEVEL: true }).extend({
  CONSOLE_PORT: port(3000),
  CONSOLE_HOST: z.string().default('127.0.0.1'),
  /** Where the browser reaches all four APIs (the gateway); the per-API variables override it. */
  CONSOLE_API_URL: z.url().optional(),
  CONSOLE_ACCOUNTS_URL: z.url().optional(),
  CONSOLE_NODES_URL: z.url().optional(),
  CONSOLE_STAKING_URL: z.url().optional(),
  CONSOLE_STREAMS_URL: z.url().optional(),
  /** The node-proxy's CA certificate file (a dev proxy's self-signed one), served to the page at /proxy-ca.pem. */
  CONSOLE_PROXY_CA_FILE: z.string().optional(),
});

export type ConsoleConfig = z.infer<typeof consoleEnvironment>;

export function loadConsoleConfig(env: NodeJS.ProcessEnv = process.env): ConsoleConfig {
  return loadConfig(consoleEnvironment, env);
}

/** The runtime contract's API addresses: where the page looks when nothing else is said. */
const CONTRACT_APIS = { accounts: 'http://127.0.0.1:3001', nodes: 'http://127.0.0.1:3002', staking: 'http://127.0.0.1:3003', streams: 'http://127.0.0.1:3004' };

/**
 * The console server's settings: each API at its own variable, else the gateway's, else `apis`
 * (the contract's defaults; `npm start` gives where its APIs listen), and the proxy's CA file.
 */
export function consoleSettings(config: ConsoleConfig, apis = CONTRACT_APIS, proxyCaFile?: string): ConsoleServerSettings {
  const api = (own: string | undefined, fallback: string) => own ?? config.CONSOLE_API_URL ?? fallback;
  return {
    accountsUrl: api(config.CONSOLE_ACCOUNTS_URL, apis.accounts),
    nodesUrl: api(config.CONSOLE_NODES_URL, apis.nodes),
    stakingUrl: api(config.CONSOLE_STAKING_URL, apis.staking),
    streamsUrl: api(config.CONSOLE_STREAMS_URL, apis.streams),
    proxyCaFile: config.CONSOLE_PROXY_CA_FILE ?? proxyCaFile ?? null,
  };
}
