import type { Stream } from '@cloud/sdk/browser';
import { Link, useSearchParams } from 'react-router';
import { Alert, Status } from '../components/Alert';
import { CreateStream } from '../components/CreateStream';
import { ListTable, type Column } from '../components/ListTable';
import { useConsole } from '../context';
import { useMessageForList, usePolledList } from '../list-page';
import { lastDeliveryWords, streamStateWords } from '../stream-words';
import { usePageTitle } from '../title';

/** How often the list is read again, so states and last deliveries move without a reload. */
const POLL_MS = 3000;

const streamKey = (stream: Stream) => stream.id;

const STREAM_COLUMNS: Column<Stream>[] = [
  {
    header: 'Stream',
    className: 'node-cell',
    cell: (stream) => (
      <>
        <Link to={`/streams/${stream.id}`} className="node-name">
          {stream.name}
        </Link>
        <br />
        <span className="mono node-id muted" title={stream.id}>
          {stream.id}
        </span>
      </>
    ),
  },
  { header: 'Kind', cell: (stream) => stream.kind },
  {
    header: 'Follows',
    cell: (stream) => (
      <Link to={stream.nodeId.startsWith('pool-') ? `/pools/${stream.nodeId}` : `/nodes/${stream.nodeId}`} className="mono node-id">
        {stream.nodeId}
      </Link>
    ),
  },
  { header: 'State', cell: (stream) => <span data-testid="stream-state">{streamStateWords(stream)}</span> },
  { header: 'Last delivery', cell: (stream) => <span data-testid="stream-last-delivery">{lastDeliveryWords(stream)}</span> },
];

/** Your streams (those of one node or pool with `?node=`), and the create form. */
export function StreamsPage() {
  usePageTitle('Streams');
  const { client } = useConsole();
  const [search] = useSearchParams();
  const nodeId = search.get('node') ?? undefined;
  const list = usePolledList(() => client.streams.list(), POLL_MS, streamKey);
  const said = useMessageForList();
  const shown = list.items && nodeId ? list.items.filter((stream) => stream.nodeId === nodeId) : list.items;
  return (
    <>
      <h1>Streams</h1>
      <p className="hint">A node’s (or pool’s) new blocks, reorgs and address activity POSTed to your URL in order, signed, retried for a day, never lost.</p>
      <Status message={said} />
      <section aria-labelledby="streams-title">
        <h2 id="streams-title">{nodeId ? <>Streams of {nodeId}</> : 'Your streams'}</h2>
        {nodeId && (
          <p>
            <Link to="/streams">All your streams</Link>
          </p>
        )}
        <Alert error={list.error} />
        <ListTable
          label="Streams"
          className="nodes-table"
          rows={shown}
          columns={STREAM_COLUMNS}
          rowKey={streamKey}
          rowData={(stream) => ({ 'data-stream-id': stream.id })}
          empty="No streams yet: create one below."
        />
      </section>
      <CreateStream key={nodeId ?? ''} nodeId={nodeId} onCreated={list.put} />
    </>
  );
}
