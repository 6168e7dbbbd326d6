import { NotFoundError, type Node } from '@cloud/sdk/browser';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { AccessRules } from '../components/AccessRules';
import { Alert } from '../components/Alert';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { Credentials } from '../components/Credentials';
import { DevChain } from '../components/DevChain';
import { Endpoints } from '../components/Endpoints';
import { CopyButton } from '../components/CopyButton';
import { Logs } from '../components/Logs';
import { NodeName } from '../components/NodeName';
import { StateBadge, SyncProgress } from '../components/NodeState';
import { ReadyLines } from '../components/ReadyLines';
import { Usage } from '../components/Usage';
import { useApi, useConsole } from '../context';
import type { CredentialSummary, NewCredential } from '../credentials';
import { usePolling } from '../polling';
import { placeholderLines } from '../ready';
import { usePageTitle } from '../title';

type Action = 'stop' | 'start' | 'delete';

export function NodePage() {
  const { id } = useParams();
  return <NodeScreen key={id} id={id!} />;
}

function NodeScreen({ id }: { id: string }) {
  const [node, setNode] = useState<Node | null>(null);
  usePageTitle(node?.name ? `Node ${node.name}` : `Node ${id}`);
  const { client, config, shownOnce } = useConsole();
  const navigate = useNavigate();
  const { error, setError, run } = useApi();
  const actionApi = useApi();
  const [gone, setGone] = useState(false);
  const [confirming, setConfirming] = useState<Action | null>(null);
  // The secret shown once on this page: the first credential of a node just created (its password,
  // from the create answer), or one created or rotated here. Out of memory when the page is left.
  const [secret, setSecret] = useState<NewCredential | undefined>(() => {
    const created = shownOnce.get(id);
    return created && { id: '', name: 'default', kind: 'basic', nodeUser: created.user, nodePass: created.password, createdAt: '' };
  });
  useEffect(() => () => void shownOnce.delete(id), [id, shownOnce]);
  const [credentials, setCredentials] = useState<CredentialSummary[]>([]);
  const nodeUser = credentials.flatMap((credential) => (credential.kind === 'basic' ? [credential.nodeUser] : []))[0];

  usePolling(
    async () => {
      try {
        setNode(await client.nodes.get(id));
        setError(null);
      } catch (caught) {
        if (caught instanceof NotFoundError) setGone(true);
        else await run(() => Promise.reject(caught));
      }
    },
    3000,
    client,
    !gone,
  );

  const act = async (action: Action) => {
    setConfirming(null);
    const calls = { stop: () => client.nodes.stop(id), start: () => client.nodes.start(id), delete: () => client.nodes.remove(id) };
    const result = await actionApi.run(calls[action]);
    if (!result.ok) return;
    if (action === 'delete') void navigate('/nodes', { state: { message: `Node ${id} is being deleted.` } });
    else setNode(result.value);
  };

  if (gone) {
    return (
      <>
        <h1>Node {id}</h1>
        <p role="alert">There is no such node of yours: it was deleted, or the link is wrong.</p>
        <Link to="/nodes">All nodes</Link>
      </>
    );
  }

  const canStop = node && ['provisioning', 'syncing', 'running'].includes(node.state);
  const canStart = node && ['stopped', 'failed'].includes(node.state);
  return (
    <>
      <p className="crumbs">
        <Link to="/nodes">Nodes</Link> / {node?.name ?? <span className="mono node-id-full">{id}</span>}
      </p>
      <h1>{node?.name ? node.name : <>Node <span className="mono node-id-full">{id}</span></>}</h1>
      <p className="node-ident">
        <span className="muted">Id</span> <code className="node-id-full" id="node-id" data-testid="node-id">{id}</code> <CopyButton text={id} label="Copy the node's id" selectId="node-id" />
      </p>
      <Alert error={error} />
      <Alert error={actionApi.error} />
      {node && (
        <>
          <section aria-labelledby="summary-title" className="panel">
            <h2 id="summary-title">Status</h2>
            <dl className="facts">
              <dt>Name</dt>
              <dd>
                <NodeName node={node} onRenamed={setNode} />
              </dd>
              <dt>State</dt>
              <dd data-testid="node-state">
                <StateBadge state={node.state} />
                {node.stateReason && <span className="reason"> {node.stateReason}</span>}
              </dd>
              <dt>Sync</dt>
              <dd>
                <SyncProgress node={node} label="Sync with its network" />
              </dd>
              <dt>Chain</dt>
              <dd>
                {node.networkLabel}, {node.software}
              </dd>
              <dt>Options</dt>
              <dd>{[node.large ? 'large' : 'standard', node.jwt ? 'jwt' : 'Basic credentials', node.txindex ? 'transaction index' : null].filter(Boolean).join(', ')}</dd>
              <dt>Created</dt>
              <dd>{new Date(node.createdAt).toLocaleString()}</dd>
              {nodeUser && (
                <>
                  <dt>Node user</dt>
                  <dd>
                    <code data-testid="node-user-name">{nodeUser}</code>{' '}
                    <span className="muted">
                      (not a secret). Its password was shown once, when the node was created; the platform keeps only its hash. Create or rotate a
                      credential under Credentials to get a new one.
                    </span>
                  </dd>
                </>
              )}
            </dl>
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
      <ConfirmDialog
        open={confirming === 'stop'}
        title="Stop this node?"
        confirmLabel="Stop the node"
        onCancel={() => setConfirming(null)}
        onConfirm={() => void act('stop')}
      >
        <p>It stops answering calls. Its data, credentials and address are kept, and Start runs it again.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === 'start'}
        title="Start this node?"
        confirmLabel="Start the node"
        onCancel={() => setConfirming(null)}
        onConfirm={() => void act('start')}
      >
        <p>It starts again on its kept data.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === 'delete'}
        title="Delete this node?"
        confirmLabel="Delete the node"
        danger
        onCancel={() => setConfirming(null)}
        onConfirm={() => void act('delete')}
      >
        <p>
          Node <code>{id}</code> stops, and its data is removed. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
