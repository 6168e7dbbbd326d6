import { poolHealth, type Pool } from '@cloud/sdk/browser';
import { Link } from 'react-router';
import { Alert, Status } from '../components/Alert';
import { CreatePool } from '../components/CreatePool';
import { ListTable, type Column } from '../components/ListTable';
import { useMessageForList, usePolledList } from '../list-page';
import { useConsole } from '../context';
import { usePageTitle } from '../title';

/** How often the list is read again, so the members' states move without a reload. */
const POLL_MS = 3000;

const poolKey = (pool: Pool) => pool.id;

const POOL_COLUMNS: Column<Pool>[] = [
  {
    header: 'Pool',
    className: 'node-cell',
    cell: (pool) => (
      <>
        <Link to={`/pools/${pool.id}`} className="node-name">
          {pool.name}
        </Link>
        <br />
        <span className="mono node-id muted" title={pool.id}>
          {pool.id}
        </span>
      </>
    ),
  },
  { header: 'Chain', cell: (pool) => `${pool.image} · ${pool.networkLabel}` },
  {
    header: 'Members',
    cell: (pool) => (
      <ul className="plain members" data-testid="pool-members">
        {pool.members.map((member) => (
          <li key={member.nodeId} data-member={member.nodeId}>
            <Link to={`/nodes/${member.nodeId}`}>{member.name ?? member.nodeId}</Link>
          </li>
        ))}
      </ul>
    ),
  },
  { header: 'Health', cell: (pool) => <span data-testid="pool-health">{poolHealth(pool).words}</span> },
  { header: 'Created', cell: (pool) => new Date(pool.createdAt).toLocaleString() },
];

export function PoolsPage() {
  usePageTitle('Pools');
  const { client } = useConsole();
  const list = usePolledList(() => client.pools.list(), POLL_MS, poolKey);
  const said = useMessageForList();
  return (
    <>
      <h1>Pools</h1>
      <p className="hint">One endpoint, with its own credentials, over several of your nodes of one chain: calls go to a member that is up and in step.</p>
      <Status message={said} />
      <section aria-labelledby="pools-title">
        <h2 id="pools-title">Your pools</h2>
        <Alert error={list.error} />
        <ListTable
          label="Pools"
          className="nodes-table"
          rows={list.items}
          columns={POOL_COLUMNS}
          rowKey={poolKey}
          rowData={(pool) => ({ 'data-pool-id': pool.id })}
          empty="No pools yet: create one below."
        />
      </section>
      <CreatePool onCreated={list.put} />
    </>
  );
}
