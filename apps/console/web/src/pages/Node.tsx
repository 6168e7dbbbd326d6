import { useState, type ReactNode } from 'react';
import { imageFamily } from '@cloud/sdk/browser';
import { Link, useParams } from 'react-router';
import { AccessRules } from '../components/AccessRules';
import { Alert } from '../components/Alert';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { CopyButton } from '../components/CopyButton';
import { Credentials } from '../components/Credentials';
import { DevChain } from '../components/DevChain';
import { Endpoints } from '../components/Endpoints';
import { Gone } from '../components/Gone';
import { Logs } from '../components/Logs';
import { NodeFacts } from '../components/NodeFacts';
import { ReadyLines } from '../components/ReadyLines';
import { Usage } from '../components/Usage';
import { useApi, useConsole } from '../context';
import type { CredentialSummary, NewCredential } from '../credentials';
import { usePolledDetail, useShownOnce } from '../detail-page';
import { useBackToList } from '../list-page';
import { placeholderLines } from '../ready';
import { usePageTitle } from '../title';

type Action = 'stop' | 'start' | 'delete';

/** What each action's confirmation asks, and says will happen to the node `id`. */
const CONFIRMATIONS: Record<Action, { title: string; confirmLabel: string; danger?: true; says: (id: string) => ReactNode }> = {
  stop: {
    title: 'Stop this node?',
    confirmLabel: 'Stop the node',
    says: () => <p>It stops answering calls. Its data, credentials and address are kept, and Start runs it again.</p>,
  },
  start: { title: 'Start this node?', confirmLabel: 'Start the node', says: () => <p>It starts again on its kept data.</p> },
  delete: {
    title: 'Delete this node?',
    confirmLabel: 'Delete the node',
    danger: true,
    says: (id) => (
      <p>
        Node <code>{id}</code> stops, and its data is removed. This cannot be undone.
      </p>
    ),
  },
};

export function NodePage() {
  const { id } = useParams();
  return <NodeScreen key={id} id={id!} />;
}

function NodeScreen({ id }: { id: string }) {
  const { client, config } = useConsole();
  const { thing: node, setThing: setNode, gone, error } = usePolledDetail(() => client.nodes.get(id), 3000);
  usePageTitle(node?.name ? `Node ${node.name}` : `Node ${id}`);
  const backToList = useBackToList();
  const actionApi = useApi();
  const [confirming, setConfirming] = useState<Action | null>(null);
  // The secret shown once on this page: the first credential of a node just created (its password,
  // from the create answer), or one created or rotated here. Out of memory when the page is left.
  const created = useShownOnce(id);
  const [secret, setSecret] = useState<NewCredential | undefined>(
    () => created && { id: '', name: 'default', kind: 'basic', nodeUser: created.user, nodePass: created.password, createdAt: '' },
  );
  const [credentials, setCredentials] = useState<CredentialSummary[]>([]);
  const nodeUser = credentials.flatMap((credential) => (credential.kind === 'basic' ? [credential.nodeUser] : []))[0];

  const act = async (action: Action) => {
    setConfirming(null);
    const calls = { stop: () => client.nodes.stop(id), start: () => client.nodes.start(id), delete: () => client.nodes.remove(id) };
    const result = await actionApi.run(calls[action]);
    if (!result.ok) return;
    if (action === 'delete') backToList('/nodes', `Node ${id} is being deleted.`);
    else setNode(result.value);
  };

  if (gone) {
    return (
      <Gone title={`Node ${id}`} list={{ to: '/nodes', label: 'All nodes' }}>
        There is no such node of yours: it was deleted, or the link is wrong.
      </Gone>
    );
  }

  const canStop = node && ['provisioning', 'syncing', 'running'].includes(node.state);
  const canStart = node && ['stopped', 'failed'].includes(node.state);
  return (
    <>
      <p className="crumbs">
        <Link to="/nodes">Nodes</Link> / {node?.name ?? <span className="mono node-id-full">{id}</span>}
      </p>
      <h1>
        {node?.name ? (
          node.name
        ) : (
          <>
            Node <span className="mono node-id-full">{id}</span>
          </>
        )}
      </h1>
      <p className="node-ident">
        <span className="muted">Id</span>{' '}
        <code className="node-id-full" id="node-id" data-testid="node-id">
          {id}
        </code>{' '}
        <CopyButton text={id} label="Copy the node's id" selectId="node-id" />
      </p>
      <Alert error={error} />
      <Alert error={actionApi.error} />
      {node && (
        <>
          <section aria-labelledby="summary-title" className="panel">
            <h2 id="summary-title">Status</h2>
            <NodeFacts node={node} nodeUser={nodeUser} onRenamed={setNode} />
            <div className="actions">
              <button type="button" onClick={() => setConfirming('stop')} disabled={!canStop}>
                Stop
              </button>
              <button type="button" onClick={() => setConfirming('start')} disabled={!canStart}>
                Start
              </button>
              <button type="button" className="button-danger" onClick={() => setConfirming('delete')} disabled={node.state === 'deleting'}>
                Delete
              </button>
            </div>
            {imageFamily(node.image) !== 'avalanche' && (
              <p>
                <Link to={`/streams?node=${encodeURIComponent(id)}`}>Streams of this node</Link>: its blocks or address activity sent to your webhook.
              </p>
            )}
          </section>
          <div className="side-by-side">
            <Endpoints endpoints={node.endpoints} jwt={node.jwt} ca={config} />
            <section aria-labelledby="call-title" className="panel">
              <h2 id="call-title">Call it</h2>
              <ReadyLines lines={placeholderLines(node, config.proxyCaFile, nodeUser)} title="Ready lines" testId="ready-lines">
                <p className="hint">
                  {node.jwt
                    ? 'With your client access token: `npx cloud token` prints one.'
                    : 'With a Basic credential: put its password where it says <password>. A URL token’s lines, cast among them, are shown with it when it is created or rotated.'}
                </p>
              </ReadyLines>
            </section>
          </div>
          {!node.jwt && <Credentials node={node} secret={secret} onSecret={setSecret} onList={setCredentials} />}
          <DevChain node={node} secret={secret} user={nodeUser} />
          <Usage nodeId={id} />
          <Logs read={() => client.nodes.logs(id, 40)} />
          <AccessRules nodeId={id} />
        </>
      )}
      {(Object.keys(CONFIRMATIONS) as Action[]).map((action) => (
        <ConfirmDialog
          key={action}
          open={confirming === action}
          title={CONFIRMATIONS[action].title}
          confirmLabel={CONFIRMATIONS[action].confirmLabel}
          danger={CONFIRMATIONS[action].danger}
          onCancel={() => setConfirming(null)}
          onConfirm={() => void act(action)}
        >
          {CONFIRMATIONS[action].says(id)}
        </ConfirmDialog>
      ))}
    </>
  );
}
