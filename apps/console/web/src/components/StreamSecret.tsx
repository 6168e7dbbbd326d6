import { CopyableCode } from './Copyable';

/**
 * A stream's signing secret from its create or rotate answer, shown this once with its copy button,
 * and how a receiver checks `x-cloud-signature` with it. The console keeps it nowhere.
 */
export function StreamSecret({ secret, onHide }: { secret: string; onHide: () => void }) {
  return (
    <div className="panel panel-secret" data-testid="stream-secret-panel">
      <p>
        <strong>Copy the signing secret now: it is shown this once.</strong> The console does not keep it; rotate it for a new one.
      </p>
      <dl className="facts">
        <dt>Signing secret</dt>
        <dd>
          <CopyableCode text={secret} label="Copy the signing secret" testId="stream-secret" secret />
        </dd>
      </dl>
      <p className="hint">
        Every delivery carries <code>x-cloud-signature: t=&lt;unix seconds&gt;,v1=&lt;hex&gt;</code>: compute HMAC-SHA256 with this secret over{' '}
        <code>&lt;t&gt;.&lt;raw body&gt;</code>, compare it with <code>v1</code> in constant time, and refuse a <code>t</code> more than 300 seconds from your
        clock. Events keep their <code>id</code> through retries: use it to drop a repeat.
      </p>
      <button type="button" onClick={onHide}>
        I have copied it: hide the secret
      </button>
    </div>
  );
}
