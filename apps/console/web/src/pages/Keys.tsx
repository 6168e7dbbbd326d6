import type { ClientKey, ClientKeySummary } from '@cloud/sdk/browser';
import { useCallback, useEffect, useState } from 'react';
import { Alert, Status } from '../components/Alert';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ACTIONS_HEADER, ListTable } from '../components/ListTable';
import { ShownOnce } from '../components/ShownOnce';
import { useApi, useConsole } from '../context';
import { usePageTitle } from '../title';

export function KeysPage() {
  usePageTitle('Client keys');
  const { client } = useConsole();
  const { error, run } = useApi();
  const [keys, setKeys] = useState<ClientKeySummary[] | null>(null);
  const [created, setCreated] = useState<ClientKey | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const sessionKey = client.currentSession()?.clientId;

  const load = useCallback(async () => {
    const result = await run(() => client.accounts.listClientKeys());
    if (result.ok) setKeys(result.value);
  }, [client, run]);
  useEffect(() => void load(), [load]);

  const create = async () => {
    setStatus(null);
    const result = await run(() => client.accounts.createClientKey());
    if (result.ok) {
      setCreated(result.value);
      await load();
    }
  };

  const remove = async (id: string) => {
    setDeleting(null);
    const result = await run(() => client.accounts.removeClientKey(id));
    if (result.ok) {
      if (created?.clientId === id) setCreated(null);
      setStatus(`Key ${id} deleted; its tokens no longer work.`);
      await load();
    }
  };

  return (
    <>
      <h1>Client keys</h1>
      <p>
        A client key pair (client id and secret) gets client tokens for the nodes and staking APIs, for your scripts and services. Deleting a key ends every
        token made with it.
      </p>
      <Alert error={error} />
      <Status message={status} />
      <p>
        <button type="button" className="button-primary" onClick={() => void create()}>
          Create a client key
        </button>
      </p>
      {created && (
        <section aria-labelledby="new-key-title" className="panel panel-secret">
          <h2 id="new-key-title">Your new client key</h2>
          <ShownOnce
            name={{ label: 'Client id', value: created.clientId, testId: 'new-client-id' }}
            secret={{ label: 'Client secret', value: created.clientSecret, testId: 'new-client-secret' }}
          />
          <button type="button" onClick={() => setCreated(null)}>
            I have copied it: hide the secret
          </button>
        </section>
      )}
      <section aria-labelledby="keys-title">
        <h2 id="keys-title">Your keys</h2>
        <ListTable
          label="Client keys"
          rows={keys}
          columns={[
            {
              header: 'Client id',
              className: 'mono',
              cell: (key) => (
                <>
                  {key.id}
                  {key.id === sessionKey && <span className="tag">this browser session</span>}
                </>
              ),
            },
            { header: 'Created', cell: (key) => new Date(key.createdAt).toLocaleString() },
            {
              header: ACTIONS_HEADER,
              cell: (key) => (
                <button type="button" className="button-small button-danger" onClick={() => setDeleting(key.id)} aria-label={`Delete key ${key.id}`}>
                  Delete
                </button>
              ),
            },
          ]}
          rowKey={(key) => key.id}
          empty="No client keys."
        />
      </section>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this client key?"
        confirmLabel="Delete the key"
        danger
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
      >
        <p>
          Every token made with <code>{deleting}</code> stops working at once.
          {deleting === sessionKey && ' It is the key of this browser session: the console makes a new one when it needs it.'}
        </p>
      </ConfirmDialog>
    </>
  );
}
