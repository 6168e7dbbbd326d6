import type { CloudEvent } from '@cloud/sdk/browser';
import { useEffect, useId, useState } from 'react';
import { Alert } from '../components/Alert';
import { ListTable, type Column } from '../components/ListTable';
import { useApi, useConsole } from '../context';
import { usePageTitle } from '../title';

const PAGE_SIZE = 20;
const SERVICES = [
  { value: '', label: 'All services' },
  { value: 'cloud-accounts', label: 'Accounts' },
  { value: 'cloud-nodes', label: 'Nodes' },
  { value: 'cloud-staking', label: 'Staking' },
];

const EVENT_COLUMNS: Column<CloudEvent>[] = [
  { header: 'When', cell: (event) => new Date(event.createdAt).toLocaleString() },
  { header: 'Service', cell: (event) => event.service },
  {
    header: 'Call',
    cell: (event) => (
      <>
        <span className="mono">{[event.input.method, event.input.route].filter(Boolean).join(' ') || '—'}</span>
        {event.serviceData.background && <span className="tag">console read</span>}
      </>
    ),
  },
  { header: 'Status', className: (event) => (event.output.httpStatusCode >= 400 ? 'bad' : undefined), cell: (event) => event.output.httpStatusCode },
  { header: 'Bytes out', cell: (event) => event.output.bytesOut },
];

/** The records of your calls, newest first, a page at a time (`before` the last one shown). */
export function EventsPage() {
  usePageTitle('Events');
  const { client } = useConsole();
  const { error, run } = useApi();
  const [service, setService] = useState('');
  // The console's own reads (page loads and refreshes) are left out unless asked for.
  const [showBackground, setShowBackground] = useState(false);
  // The `before` cursor of each page seen, so "Newer" can go back.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [events, setEvents] = useState<CloudEvent[] | null>(null);
  const serviceId = useId();
  const backgroundId = useId();
  const before = cursors[cursors.length - 1];

  useEffect(() => {
    const query = {
      limit: PAGE_SIZE,
      ...(service ? { service } : {}),
      ...(before ? { before } : {}),
      ...(showBackground ? {} : { background: 'false' as const }),
    };
    void run(() => client.accounts.events(query)).then((result) => result.ok && setEvents(result.value));
  }, [client, run, service, before, showBackground]);

  const page = cursors.length;
  return (
    <>
      <h1>Events</h1>
      <p>
        The calls you made to the platform's APIs (here, with the CLI, the SDK or your own programs), newest first.{' '}
        {showBackground
          ? "The console's own reads are shown too, marked console read."
          : "The console's own reads, which show and refresh its pages, are left out."}
      </p>
      <div className="toolbar">
        <label htmlFor={serviceId}>Service</label>
        <select
          id={serviceId}
          value={service}
          onChange={(event) => {
            setService(event.target.value);
            setCursors([undefined]);
          }}
        >
          {SERVICES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <span className="check">
          <input
            id={backgroundId}
            type="checkbox"
            checked={showBackground}
            onChange={(event) => {
              setShowBackground(event.target.checked);
              setCursors([undefined]);
            }}
          />
          <label htmlFor={backgroundId}>Show the console's own reads</label>
        </span>
      </div>
      <Alert error={error} />
      <ListTable
        label="Events"
        rows={events}
        columns={EVENT_COLUMNS}
        rowKey={(event) => event.id}
        caption={`Events, page ${page}`}
        empty={`No events${page > 1 ? ' on this page' : ''}.`}
      />
      <nav aria-label="Event pages" className="pager">
        <button type="button" disabled={page === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          Newer
        </button>
        <span>Page {page}</span>
        <button type="button" disabled={!events || events.length < PAGE_SIZE} onClick={() => events && setCursors([...cursors, events[events.length - 1]!.id])}>
          Older
        </button>
      </nav>
    </>
  );
}
