import { poolHealth, type Pool } from '@cloud/sdk/browser';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Alert } from '../components/Alert';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { CopyButton } from '../components/CopyButton';
import { EditPool } from '../components/EditPool';
import { Endpoints } from '../components/Endpoints';
import { Gone } from '../components/Gone';
import { ListTable, type Column } from '../components/ListTable';
import { StateBadge } from '../components/NodeState';
import { ReadyLines } from '../components/ReadyLines';
import { ShownOnce } from '../components/ShownOnce';
import { Usage } from '../components/Usage';
import { useApi, useConsole } from '../context';
import { usePolledDetail, useShownOnce } from '../detail-page';
import { useBackToList } from '../list-page';
import { linesFor, placeholderLines } from '../ready';
import { nodeSyncWords } from '../status-words';
import { usePageTitle } from '../title';

type MemberRow = Pool['members'][number] & { serves: boolean; health: string };

export function PoolPage() {
  const { id } = useParams();
  return <PoolScreen key={id} id={id!} />;
}

function PoolScreen({ id }: { id: string }) {
  const { client, config } = useConsole();
  const { thing: pool, setThing: setPool, gone, error } = usePolledDetail(() => client.pools.get(id), 3000);
  usePageTitle(pool ? `Pool ${pool.name}` : `Pool ${id}`);
  const backToList = useBackToList();
  const deleteApi = useApi();
  const [confirming, setConfirming] = useState(false);
  // The pool's first credential, from the create answer when this page follows it; out of memory when the page is left.
  const created = useShownOnce(id);
  const [secret, setSecret] = useState(created);

  const remove = async () => {
    setConfirming(false);
    const result = await deleteApi.run(() => client.pools.remove(id));
    if (result.ok) backToList('/pools', `Pool ${pool?.name ?? id} is deleted; its nodes run on.`);
  };

  if (gone) {
    return (
      <Gone title={`Pool ${id}`} list={{ to: '/pools', label: 'All pools' }}>
        There is no such pool of yours: it was deleted, or the link is wrong.
      </Gone>
    );
  }

  const health = pool && poolHealth(pool);
  const memberColumns: Column<MemberRow>[] = [
    {
      header: 'Node',
      className: 'node-cell',
      cell: (member) => (
        <Link to={`/nodes/${member.nodeId}`} className={member.name === null ? 'mono node-id' : 'node-name'} title={member.nodeId}>
          {member.name ?? member.nodeId}
        </Link>
      ),
    },
    { header: 'State', cell: (member) => <StateBadge state={member.state} /> },
    {
      header: 'Sync',
      cell: (member) => (pool ? nodeSyncWords({ ...member, image: pool.image, dev: pool.dev, createdAt: pool.createdAt }).text : null),
    },
    {
      header: 'Takes calls',
      cell: (member) => (
        <span className={member.serves ? 'serves' : 'serves-not'} data-serves={member.serves}>
          {member.serves ? 'Yes' : 'No'}: {member.health}
        </span>
      ),
    },
  ];
  const members: MemberRow[] = pool
    ? pool.members.map((member, index) => ({ ...member, serves: health!.members[index]!.serves, health: health!.members[index]!.words }))
    : [];
  const callable = pool && { ...pool, jwt: false };

  return (
    <>
      <p className="crumbs">
        <Link to="/pools">Pools</Link> / {pool?.name ?? <span className="mono node-id-full">{id}</span>}
      </p>
      <h1>{pool?.name ?? <span className="mono node-id-full">Pool {id}</span>}</h1>
      <p className="node-ident">
        <span className="muted">Id</span>{' '}
        <code className="node-id-full" id="pool-id" data-testid="pool-id">
          {id}
        </code>{' '}
        <CopyButton text={id} label="Copy the pool's id" selectId="pool-id" />
      </p>
      <Alert error={error} />
      <Alert error={deleteApi.error} />
      {pool && callable && health && (
        <>
          <section aria-labelledby="summary-title" className="panel">
            <h2 id="summary-title">Status</h2>
            <dl className="facts">
              <dt>Health</dt>
              <dd data-testid="pool-health">{health.words}</dd>
              <dt>Chain</dt>
              <dd>{pool.networkLabel}</dd>
              <dt>Largest lag</dt>
              <dd>{pool.maxLagBlocks} blocks behind the best member’s head</dd>
              <dt>Created</dt>
              <dd>{new Date(pool.createdAt).toLocaleString()}</dd>
            </dl>
            <div className="actions">
              <button type="button" className="button-danger" onClick={() => setConfirming(true)}>
                Delete
              </button>
            </div>
            <p>
              <Link to={`/streams?node=${encodeURIComponent(id)}`}>Streams of this pool</Link>: its blocks or address activity sent to your webhook.
            </p>
          </section>
          <section aria-labelledby="members-title" className="panel">
            <h2 id="members-title">Members</h2>
            <p className="hint">
              As the nodes last reported (every few seconds); the proxy reads their heads itself every second and sends each call to a member that takes calls.
            </p>
            <ListTable
              label="Members"
              className="nodes-table"
              rows={members}
              columns={memberColumns}
              rowKey={(member) => member.nodeId}
              rowData={(member) => ({ 'data-member': member.nodeId })}
              testId="pool-member-table"
              empty="No members: its nodes were deleted."
            />
          </section>
          <div className="side-by-side">
            <Endpoints endpoints={pool.endpoints} jwt={false} ca={config} of="pool" />
            <section aria-labelledby="call-title" className={secret ? 'panel panel-secret' : 'panel'}>
              <h2 id="call-title">Call it</h2>
              {secret ? (
                <ShownOnce
                  name={{ label: 'User', value: secret.user, testId: 'pool-user' }}
                  secret={{ label: 'Password', value: secret.password, testId: 'pool-password' }}
                />
              ) : (
                <p>
                  With the pool’s own user and password (not a member’s), shown once when the pool was created: put it where the lines say &lt;password&gt;.
                </p>
              )}
              <ReadyLines
                lines={
                  secret
                    ? linesFor(callable, config.proxyCaFile, {
                        id: '',
                        name: 'default',
                        kind: 'basic',
                        nodeUser: secret.user,
                        nodePass: secret.password,
                        createdAt: '',
                      })
                    : placeholderLines(callable, config.proxyCaFile)
                }
                title="Ready lines"
                testId="ready-lines"
              />
              {secret && (
                <button type="button" onClick={() => setSecret(undefined)}>
                  I have copied it: hide the password
                </button>
              )}
            </section>
          </div>
          <Usage nodeId={id} pool />
          <EditPool pool={pool} onSaved={setPool} />
        </>
      )}
      <ConfirmDialog
        open={confirming}
        title="Delete this pool?"
        confirmLabel="Delete the pool"
        danger
        onCancel={() => setConfirming(false)}
        onConfirm={() => void remove()}
      >
        <p>
          Pool <code>{id}</code>’s endpoint and credentials stop working. Its member nodes are not touched and run on.
        </p>
      </ConfirmDialog>
    </>
  );
}
