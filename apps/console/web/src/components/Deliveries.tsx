import type { DeliveryAttempt } from '@cloud/sdk/browser';
import { seqWords } from '../stream-words';
import { ListTable, type Column } from './ListTable';

const COLUMNS: Column<DeliveryAttempt>[] = [
  { header: 'Time', cell: (attempt) => new Date(attempt.at).toLocaleString() },
  { header: 'Attempt', cell: (attempt) => attempt.attempt },
  { header: 'Seqs', cell: (attempt) => seqWords(attempt) },
  { header: 'Events', cell: (attempt) => attempt.events },
  { header: 'Outcome', cell: (attempt) => <span className={`outcome outcome-${attempt.outcome}`}>{attempt.outcome}</span> },
  { header: 'Status code', cell: (attempt) => attempt.statusCode ?? '—' },
  { header: 'Latency', cell: (attempt) => `${attempt.latencyMs} ms` },
  { header: 'Error', className: 'wrap', cell: (attempt) => attempt.error ?? '' },
];

/** A stream's delivery log, newest first: one row per attempt. */
export function Deliveries({ attempts }: { attempts: DeliveryAttempt[] | null }) {
  return (
    <section aria-labelledby="deliveries-title" className="panel">
      <h2 id="deliveries-title">Deliveries</h2>
      <p className="hint">Every attempt, newest first (the last 1000 are kept); read again every few seconds.</p>
      <ListTable
        label="Deliveries"
        className="deliveries-table"
        rows={attempts}
        columns={COLUMNS}
        rowKey={(attempt) => `${attempt.deliveryId}:${attempt.attempt}`}
        rowData={(attempt) => ({ 'data-outcome': attempt.outcome })}
        testId="deliveries-table"
        empty="No delivery yet."
      />
    </section>
  );
}
