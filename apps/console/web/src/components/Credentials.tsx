import { useState } from 'react';
import type { ShownOnceSecret } from '../context';
import { curlLine } from '../rpc';
import { CopyButton } from './CopyButton';
import { ShownOnce } from './ShownOnce';

/**
 * How to call a node: its credentials while this page shows them once (after a create), and the
 * ready-to-paste curl line. Later the line has a placeholder where the password goes.
 */
export function Credentials(props: { image: string; address: string; port: number; jwt: boolean; caFile: string | null; secret: ShownOnceSecret | undefined }) {
  const [secret, setSecret] = useState(props.secret);
  const line = curlLine({ image: props.image, address: props.address, port: props.port, caFile: props.caFile, jwt: props.jwt, ...(secret ? { basic: secret } : {}) });
  return (
    <section aria-labelledby="call-title" className={secret ? 'panel panel-secret' : 'panel'}>
      <h2 id="call-title">Call it</h2>
      {props.jwt && <p>This node takes your client access token: `npx cloud token` prints one, or use a client key's tokens.</p>}
      {secret && (
        <ShownOnce
          name={{ label: 'User', value: secret.user, testId: 'node-user' }}
          secret={{ label: 'Password', value: secret.password, testId: 'node-password' }}
        />
      )}
      {!secret && !props.jwt && (
        <p>The password was shown once, when the node was created. Put it where the line says &lt;password&gt;.</p>
      )}
      <p className="curl-label" id="curl-label">
        Ready-to-paste curl line
      </p>
      <pre className="curl" aria-labelledby="curl-label" data-testid="curl-line" tabIndex={0}>
        {line}
      </pre>
      <p className="actions">
        <CopyButton text={line} label="Copy the curl line" />
        {secret && (
          <button type="button" onClick={() => setSecret(undefined)}>
            I have copied it: hide the password
          </button>
        )}
      </p>
    </section>
  );
}
