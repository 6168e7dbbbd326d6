import type { EndpointPorts } from '@cloud/sdk/browser';
import { endpoints } from '../rpc';
import { CopyButton } from './CopyButton';

/** A node's or validator's addresses at the node-proxy, one per interface, each with a copy button. */
export function Endpoints(props: { address: string; ports: EndpointPorts }) {
  return (
    <section aria-labelledby="endpoints-title" className="panel">
      <h2 id="endpoints-title">Endpoints</h2>
      <ul className="plain">
        {endpoints(props.address, props.ports).map((endpoint) => (
          <li key={endpoint.name}>
            {endpoint.name}: <code>{endpoint.url}</code> <CopyButton text={endpoint.url} label={`Copy the ${endpoint.name} address`} />
          </li>
        ))}
      </ul>
    </section>
  );
}
