/**
 * What the console's page needs to know of the platform, served as /config.json by the server
 * and read by the page (web/src/config.ts): one type for both sides.
 */
export interface ConsoleSettings {
  /** Base URLs of the four APIs as the browser reaches them (CORS admits the console's origin). */
  accountsUrl: string;
  nodesUrl: string;
  stakingUrl: string;
  streamsUrl: string;
  /**
   * Where the console serves the dev node-proxy's self-signed certificate, on its own origin
   * (`/proxy-ca.pem`), for the page's `curl --cacert` lines; null when the proxy has a certificate
   * clients trust. The file's path on the operator's machine is never shown to the page.
   */
  proxyCaUrl: string | null;
}

/** The console server's own settings: the page's API addresses and, on this machine, the proxy's certificate file. */
export interface ConsoleServerSettings extends Omit<ConsoleSettings, 'proxyCaUrl'> {
  proxyCaFile: string | null;
}

/** The path of the proxy's certificate on the console's origin. */
export const PROXY_CA_PATH = '/proxy-ca.pem';

/** What the page's lines save the certificate as, and name in `--cacert`. */
export const PROXY_CA_FILE_NAME = 'cloud-proxy-ca.pem';

/** The settings the page gets: the certificate's address on the console's origin in place of its path here. */
export function pageSettings({ proxyCaFile, ...apis }: ConsoleServerSettings): ConsoleSettings {
  return { ...apis, proxyCaUrl: proxyCaFile ? PROXY_CA_PATH : null };
}
