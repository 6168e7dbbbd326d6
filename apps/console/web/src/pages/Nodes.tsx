import type { Node } from '@cloud/sdk/browser';
import { Link } from 'react-router';
import { Alert, Status } from '../components/Alert';
import { CreateNode } from '../components/CreateNode';
import { ListTable, type Column } from '../components/ListTable';
import { StateBadge, SyncProgress } from '../components/NodeState';
import { useConsole } from '../context';
import { useMessageForList, usePolledList } from '../list-page';
import { usePageTitle } from '../title';

/** How often the list is read again, so states and sync progress move without a reload. */
const POLL_MS = 3000;

const nodeKey = (node: Node) => node.id;

const NODE_COLUMNS: Column<Node>[] = [
  {
    header: 'Node',
    className: 'node-cell',
    cell: (node) =>
      node.name === null ? (
        <Link to={`/nodes/${node.id}`} className="mono node-id" title={node.id}>
          {node.id}
        </Link>
      ) : (
        <>
          <Link to={`/nodes/${node.id}`} className="node-name">
            {node.name}
          </Link>
          <br />
          <span className="mono node-id muted" title={node.id}>
            {node.id}
          </span>
        </>
      ),
  },
  {
    header: 'Chain',
    cell: (node) => (
      <>
        {node.image} · {node.networkLabel}
        {node.jwt && <span className="tag">jwt</span>}
      </>
    ),
  },
  { header: 'State', cell: (node) => <StateBadge state={node.state} /> },
  { header: 'Sync', cell: (node) => <SyncProgress node={node} label={`Sync of ${node.id}`} /> },
  { header: 'Created', cell: (node) => new Date(node.createdAt).toLocaleString() },
];

export function NodesPage() {
  usePageTitle('Nodes');
  const { client } = useConsole();
  const list = usePolledList(() => client.nodes.list(), POLL_MS, nodeKey);
  const said = useMessageForList();
  return (
    <>
      <h1>Nodes</h1>
      <Status message={said} />
      <section aria-labelledby="nodes-title">
        <h2 id="nodes-title">Your nodes</h2>
        <Alert error={list.error} />
        <ListTable
          label="Nodes"
          className="nodes-table"
          rows={list.items}
          columns={NODE_COLUMNS}
          rowKey={nodeKey}
          rowData={(node) => ({ 'data-node-id': node.id })}
          empty="No nodes yet: create one below."
        />
      </section>
      <CreateNode onCreated={list.put} />
    </>
  );
}
