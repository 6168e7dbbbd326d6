import type { Node } from '@cloud/sdk/browser';
import { NodeName } from './NodeName';
import { StateBadge, SyncProgress } from './NodeState';

/** A node's page's status facts: name (editable), state, sync, chain, options, and a Basic node's user. */
export function NodeFacts({ node, nodeUser, onRenamed }: { node: Node; nodeUser: string | undefined; onRenamed: (node: Node) => void }) {
  return (
    <dl className="facts">
      <dt>Name</dt>
      <dd>
        <NodeName node={node} onRenamed={onRenamed} />
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
      <dd>
        {[node.large ? 'large' : 'standard', node.jwt ? 'jwt' : 'Basic credentials', node.txindex ? 'transaction index' : null].filter(Boolean).join(', ')}
      </dd>
      <dt>Created</dt>
      <dd>{new Date(node.createdAt).toLocaleString()}</dd>
      {nodeUser && (
        <>
          <dt>Node user</dt>
          <dd>
            <code data-testid="node-user-name">{nodeUser}</code>{' '}
            <span className="muted">
              (not a secret). Its password was shown once, when the node was created; the platform keeps only its hash. Create or rotate a credential under
              Credentials to get a new one.
            </span>
          </dd>
        </>
      )}
    </dl>
  );
}
