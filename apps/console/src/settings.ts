/**
 * What the console's page needs to know of the platform, served as /config.json by the server
 * and read by the page (web/src/config.ts): one type for both sides.
 */
export interface ConsoleSettings {
  /** Base URLs of the three APIs as the browser reaches them (CORS admits the console's origin). */
  accountsUrl: string;
  nodesUrl: string;
  stakingUrl: string;
  /**
   * Where the dev node-proxy's self-signed certificate is on the operator's machine, for the
   * `curl --cacert` line the node page shows; null when the proxy has a certificate clients trust.
   */
  proxyCaFile: string | null;
}
