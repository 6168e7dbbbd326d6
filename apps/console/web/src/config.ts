import type { ConsoleSettings } from '../../src/settings';

export type { ConsoleSettings };

/** Reads the console's own /config.json (a static file of this origin, not an API call). */
export async function loadConfig(): Promise<ConsoleSettings> {
  const response = await fetch('/config.json', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`/config.json answered ${response.status}`);
  const config = (await response.json()) as Partial<ConsoleSettings>;
  for (const key of ['accountsUrl', 'nodesUrl', 'stakingUrl'] as const) {
    if (typeof config[key] !== 'string') throw new Error(`/config.json has no ${key}`);
  }
  return { ...(config as ConsoleSettings), proxyCaFile: config.proxyCaFile ?? null };
}
