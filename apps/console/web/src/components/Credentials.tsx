import type { Node } from '@cloud/sdk/browser';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useApi, useConsole } from '../context';
import { KIND_NAMES, type CredentialKind, type CredentialSummary, type NewCredential } from '../credentials';
import { LIMITS, inputLimits } from '../limits';
import { linesFor } from '../ready';
import { Alert, Status } from './Alert';
import { ConfirmDialog } from './ConfirmDialog';
import { CopyableCode } from './Copyable';
import { PLAIN_HTTP } from './Endpoints';
import { ACTIONS_HEADER, ListTable } from './ListTable';
import { ReadyLines } from './ReadyLines';

type Pending = { action: 'rotate' | 'delete'; credential: CredentialSummary };

/**
 * A node's named credentials: the list (name, kind, a Basic one's user name, created), create (a
 * URL token or a Basic user and password), rotate and delete, each change after a confirmation.
 * A new secret is shown once, right after its create or rotate, with its ready lines; the console
 * keeps it in this component's memory only, until it is hidden or the page is left.
 */
export function Credentials(props: {
  node: Node;
  /** The secret shown now (a create or rotate answer, or the node's own first credential after its create), kept by the page. */
  secret: NewCredential | undefined;
  onSecret: (secret: NewCredential | undefined) => void;
  /** The credentials as last read, for the page's other panels (the node user). */
  onList: (credentials: CredentialSummary[]) => void;
}) {
  const { node, secret, onSecret: setSecret, onList } = props;
  const { client } = useConsole();
  const { error, run } = useApi();
  const [credentials, setListed] = useState<CredentialSummary[] | null>(null);
  const setCredentials = useCallback(
    (listed: CredentialSummary[]) => {
      setListed(listed);
      onList(listed);
    },
    [onList],
  );
  const [pending, setPending] = useState<Pending | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [kind, setKind] = useState<CredentialKind>('token');
  const ids = { name: useId(), nameHint: useId(), kind: useId() };

  const load = useCallback(async () => {
    const result = await run(() => client.nodes.credentials(node.id));
    if (result.ok) setCredentials(result.value);
  }, [client, node.id, run, setCredentials]);
  useEffect(() => void load(), [load]);

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get('name') ?? '').trim();
    setStatus(null);
    const result = await run(() => client.nodes.createCredential(node.id, { name, kind }));
    if (!result.ok) return;
    setSecret(result.value);
    setStatus(`Credential ${result.value.name} created: its secret is shown below, this once.`);
    form.reset();
    await load();
  };

  const act = async ({ action, credential }: Pending) => {
    setPending(null);
    setStatus(null);
    if (action === 'rotate') {
      const result = await run(() => client.nodes.rotateCredential(node.id, credential.id));
      if (!result.ok) return;
      setSecret(result.value);
      setStatus(`Credential ${credential.name} rotated: the old secret stops working within a second; the new one is shown below, this once.`);
      await load();
    } else {
      // The API refuses the node's last credential (Conflict): its words go to the alert.
      const result = await run(() => client.nodes.removeCredential(node.id, credential.id));
      if (!result.ok) return;
      if (secret?.id === credential.id) setSecret(undefined);
      setCredentials(result.value);
      setStatus(`Credential ${credential.name} deleted: it stops working within a second.`);
    }
  };

  return (
    <section aria-labelledby="credentials-title" className="panel">
      <h2 id="credentials-title">Credentials</h2>
      <p>
        Each credential has its own name, and works until it is rotated or deleted: a <strong>URL token</strong> is part of the address you paste; a{' '}
        <strong>Basic user and password</strong> go with the call (the user name is not a secret and is listed here). The password or token is shown once, right
        after the credential is created or rotated: the platform keeps only its hash, so neither it nor this console can show it again. To get a new one, create
        a credential or rotate one.
      </p>
      <Alert error={error} />
      <Status message={status} />
      {secret && <NewSecret node={node} secret={secret} onHide={() => setSecret(undefined)} />}
      <ListTable
        label="Credentials"
        testId="credentials"
        rows={credentials}
        columns={[
          { header: 'Name', cell: (credential) => credential.name },
          { header: 'Kind', cell: (credential) => KIND_NAMES[credential.kind] },
          {
            header: 'User name',
            className: 'mono',
            cell: (credential) => (credential.kind === 'basic' ? credential.nodeUser : <span className="muted">none: the token is in the address</span>),
          },
          { header: 'Created', cell: (credential) => new Date(credential.createdAt).toLocaleString() },
          {
            header: ACTIONS_HEADER,
            className: 'row-actions',
            cell: (credential) => (
              <>
                <button
                  type="button"
                  className="button-small"
                  onClick={() => setPending({ action: 'rotate', credential })}
                  aria-label={`Rotate credential ${credential.name}`}
                >
                  Rotate
                </button>
                <button
                  type="button"
                  className="button-small button-danger"
                  onClick={() => setPending({ action: 'delete', credential })}
                  aria-label={`Delete credential ${credential.name}`}
                >
                  Delete
                </button>
              </>
            ),
          },
        ]}
        rowKey={(credential) => credential.id}
        rowData={(credential) => ({ 'data-credential': credential.name })}
      />
      <h3 id="new-credential-title">Create a credential</h3>
      <form onSubmit={(event) => void create(event)} className="form" aria-labelledby="new-credential-title">
        <fieldset className="choice">
          <legend>Kind</legend>
          {(['token', 'basic'] as const).map((option) => (
            <div className="check" key={option}>
              <input id={`${ids.kind}-${option}`} name="kind" type="radio" value={option} checked={kind === option} onChange={() => setKind(option)} />
              <label htmlFor={`${ids.kind}-${option}`}>{KIND_NAMES[option]}</label>
            </div>
          ))}
        </fieldset>
        <label htmlFor={ids.name}>Name</label>
        <input
          id={ids.name}
          name="name"
          type="text"
          required
          {...inputLimits(LIMITS.nodes.CreateCredentialRequest.name)}
          autoComplete="off"
          aria-describedby={ids.nameHint}
        />
        <p id={ids.nameHint} className="hint">
          Yours to choose, one per program or person that calls the node (ci, wallet, ada): usage is counted per credential, and each can be rotated or deleted
          alone.
        </p>
        <button type="submit" className="button-primary">
          Create the credential
        </button>
      </form>
      <ConfirmDialog
        open={pending?.action === 'rotate'}
        title={`Rotate credential ${pending?.credential.name ?? ''}?`}
        confirmLabel="Rotate the credential"
        onCancel={() => setPending(null)}
        onConfirm={() => pending && void act(pending)}
      >
        <p>
          It gets a new {pending?.credential.kind === 'token' ? 'token' : 'password'}, shown once. The old one stops working within a second: update every
          program that uses it.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={pending?.action === 'delete'}
        title={`Delete credential ${pending?.credential.name ?? ''}?`}
        confirmLabel="Delete the credential"
        danger
        onCancel={() => setPending(null)}
        onConfirm={() => pending && void act(pending)}
      >
        <p>It stops working within a second. A node keeps at least one credential: create another before deleting its last.</p>
      </ConfirmDialog>
    </section>
  );
}

/** A credential's secret right after its create or rotate, with its ready lines: shown this once. */
function NewSecret({ node, secret, onHide }: { node: Node; secret: NewCredential; onHide: () => void }) {
  const { config } = useConsole();
  return (
    <section aria-labelledby="new-secret-title" className="panel panel-secret" data-testid="new-secret">
      <h3 id="new-secret-title">
        {KIND_NAMES[secret.kind]} {secret.name}: shown only now
      </h3>
      <p>
        <strong>Copy the {secret.kind === 'token' ? 'token' : 'password'} now: it is shown only now.</strong> The platform keeps only its hash, and the console
        forgets it when you hide it or leave this page.
      </p>
      <dl className="facts">
        {secret.kind === 'basic' ? (
          <>
            <dt>User</dt>
            <dd>
              <CopyableCode text={secret.nodeUser} label="Copy the user" testId="new-credential-user" />
            </dd>
            <dt>Password</dt>
            <dd>
              <CopyableCode text={secret.nodePass} label="Copy the password" testId="new-credential-secret" secret />
            </dd>
          </>
        ) : (
          <>
            <dt>Token</dt>
            <dd>
              <CopyableCode text={secret.token} label="Copy the token" testId="new-credential-secret" secret />
            </dd>
            <dt>JSON-RPC with the token</dt>
            <dd>
              <CopyableCode text={secret.urls.jsonRpc} label="Copy the JSON-RPC address with the token" testId="new-credential-url" secret />
            </dd>
            {secret.urls.rest && (
              <>
                <dt>REST with the token</dt>
                <dd>
                  <CopyableCode text={secret.urls.rest} label="Copy the REST address with the token" secret />
                </dd>
              </>
            )}
            {secret.urls.webSocket && (
              <>
                <dt>WebSocket with the token</dt>
                <dd>
                  <CopyableCode text={secret.urls.webSocket} label="Copy the WebSocket address with the token" secret />
                </dd>
              </>
            )}
            {secret.urls.plain && (
              <>
                <dt>JSON-RPC with the token, {PLAIN_HTTP}</dt>
                <dd>
                  <CopyableCode text={secret.urls.plain.jsonRpc} label={`Copy the JSON-RPC address with the token, ${PLAIN_HTTP}`} secret />
                </dd>
              </>
            )}
          </>
        )}
      </dl>
      <ReadyLines lines={linesFor(node, config.proxyCaFile, secret)} title={`Ready lines with ${secret.name}`} level={4} testId="new-secret-lines" />
      <button type="button" onClick={onHide}>
        I have copied it: hide the {secret.kind === 'token' ? 'token' : 'password'}
      </button>
    </section>
  );
}
