import { PROXY_CA_FILE_NAME, type ConsoleSettings as ServedSettings } from '../../src/settings';

/**
 * What the page knows of the platform: /config.json, and the file name its lines save the dev
 * proxy's certificate as (`proxyCaFile`, for `--cacert`), with the address to save it from.
 */
export interface ConsoleSettings extends ServedSettings {
  proxyCaFile: string | null;
}

/** Reads the console's own /config.json (a static file of this origin, not an API call). */
export async function loadConfig(): Promise<ConsoleSettings> {
  const response = await fetch('/config.json', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`/config.json answered ${response.status}`);
  const config = (await response.json()) as Partial<ServedSettings>;
  for (const key of ['accountsUrl', 'nodesUrl', 'stakingUrl', 'streamsUrl'] as const) {
    if (typeof config[key] !== 'string') throw new Error(`/config.json has no ${key}`);
  }
  const proxyCaUrl = config.proxyCaUrl ? new URL(config.proxyCaUrl, window.location.origin).href : null;
  return { ...(config as ServedSettings), proxyCaUrl, proxyCaFile: proxyCaUrl ? PROXY_CA_FILE_NAME : null };
}
