import type { Node } from '@cloud/sdk/browser';
import type { ConsoleSettings } from '../config';
import { namedEndpoints } from '../rpc';
import { CopyableCode } from './Copyable';

/** Where a node is called, as its record says (`endpoints`): the console makes no address of its own. */
export type NodeEndpoints = Node['endpoints'];

/** What plain HTTP addresses are, in the words the issue and the CLI use. */
export const PLAIN_HTTP = 'plain HTTP, from this machine only (litecoin-cli, bitcoin-cli)';

/**
 * A node's or validator's addresses at the node-proxy, one per interface, each with a copy button;
 * then the plain HTTP ones the proxy answers to loopback callers only, labelled so.
 */
export function Endpoints(props: {
  endpoints: NodeEndpoints;
  jwt: boolean;
  ca: Pick<ConsoleSettings, 'proxyCaFile' | 'proxyCaUrl'>;
  /** What the addresses are of, as the hint names it. */
  of?: 'node' | 'pool';
}) {
  const { plain } = props.endpoints;
  const { proxyCaFile, proxyCaUrl } = props.ca;
  return (
    <section aria-labelledby="endpoints-title" className="panel">
      <h2 id="endpoints-title">Endpoints</h2>
      <p className="hint">
        {props.jwt
          ? 'At the node’s own name: calls carry your client access token.'
          : `Calls carry a Basic user and password (the proxy finds the ${props.of ?? 'node'} by the user name), or go to a URL token’s own address.`}
      </p>
      {proxyCaFile && proxyCaUrl && props.endpoints.jsonRpc.startsWith('https:') && (
        <p className="hint" data-testid="proxy-ca">
          The proxy has this installation’s own certificate. Save it where you run the lines below, which trust <code>{proxyCaFile}</code>:{' '}
          <CopyableCode text={`curl -sSo ${proxyCaFile} ${proxyCaUrl}`} label="Copy the line that saves the proxy’s certificate" />
        </p>
      )}
      <ul className="plain" data-testid="endpoints">
        {namedEndpoints(props.endpoints).map((endpoint) => (
          <li key={endpoint.name}>
            {endpoint.name}: <CopyableCode text={endpoint.url} label={`Copy the ${endpoint.name} address`} />
          </li>
        ))}
      </ul>
      {plain && (
        <>
          <h3 id="plain-endpoints-title">{PLAIN_HTTP[0]!.toUpperCase() + PLAIN_HTTP.slice(1)}</h3>
          <p className="hint">Served on the same ports to callers on this machine only, for clients that cannot speak TLS or take a certificate.</p>
          <ul className="plain" aria-labelledby="plain-endpoints-title" data-testid="plain-endpoints">
            {namedEndpoints(plain).map((endpoint) => (
              <li key={endpoint.name}>
                {endpoint.name}: <CopyableCode text={endpoint.url} label={`Copy the ${endpoint.name} address, ${PLAIN_HTTP}`} />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
