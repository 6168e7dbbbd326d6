import { NotFoundError, type Node } from '@cloud/sdk/browser';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { AccessRules } from '../components/AccessRules';
import { Alert } from '../components/Alert';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { Credentials } from '../components/Credentials';
import { Endpoints } from '../components/Endpoints';
import { Logs } from '../components/Logs';
import { StateBadge, SyncProgress } from '../components/NodeState';
import { Usage } from '../components/Usage';
import { useApi, useConsole } from '../context';
import { usePolling } from '../polling';
import { usePageTitle } from '../title';

type Action = 'stop' | 'start' | 'delete';

export function NodePage() {
  const { id } = useParams();
  return <NodeScreen key={id} id={id!} />;
}

function NodeScreen({ id }: { id: string }) {
  usePageTitle(`Node ${id}`);
  const { client, config, shownOnce } = useConsole();
  const navigate = useNavigate();
  const { error, setError, run } = useApi();
  const actionApi = useApi();
  const [node, setNode] = useState<Node | null>(null);
  const [gone, setGone] = useState(false);
  const [confirming, setConfirming] = useState<Action | null>(null);
  // The password of a node just created, shown once on this page; out of memory when it is left.
  const [secret] = useState(() => shownOnce.get(id));
  useEffect(() => () => void shownOnce.delete(id), [id, shownOnce]);

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
        <Link to="/nodes">Nodes</Link> / <span className="mono">{id}</span>
      </p>
      <h1>
        Node <span className="mono">{id}</span>
      </h1>
      <Alert error={error} />
      <Alert error={actionApi.error} />
      {node && (
        <>
          <section aria-labelledby="summary-title" className="panel">
            <h2 id="summary-title">Status</h2>
            <dl className="facts">
              <dt>State</dt>
              <dd data-testid="node-state">
                <StateBadge state={node.state} />
                {node.stateReason && <span className="reason"> {node.stateReason}</span>}
              </dd>
              <dt>Sync</dt>
              <dd>
                <SyncProgress sync={node.sync} label="Sync with its network" />
                {node.sync && node.sync.peers !== null && <span className="muted"> · {node.sync.peers} peers</span>}
              </dd>
              <dt>Chain</dt>
              <dd>
                {node.chain} {node.network}, {node.software}
                {node.dev && ' (a private dev chain)'}
              </dd>
              <dt>Options</dt>
              <dd>{[node.large ? 'large' : 'standard', node.jwt ? 'jwt' : 'Basic credentials', node.txindex ? 'transaction index' : null].filter(Boolean).join(', ')}</dd>
              <dt>Created</dt>
              <dd>{new Date(node.createdAt).toLocaleString()}</dd>
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
          <Endpoints address={node.address} ports={node.ports} />
          <Credentials image={node.image} address={node.address} port={node.ports.jsonRpc} jwt={node.jwt} caFile={config.proxyCaFile} secret={secret} />
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
