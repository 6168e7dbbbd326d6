import type { NodeUsage } from '@cloud/sdk/browser';
import type { ChartDataset } from 'chart.js';
import { useMemo, useState } from 'react';
import { useApi, useConsole } from '../context';
import { usePolling } from '../polling';
import { Alert } from './Alert';
import { BarChart } from './BarChart';
import { TableWrap } from './TableWrap';

type Outcome = keyof NodeUsage['totals']['calls'];

/** The proxy's outcomes, in words, each with a colour that holds 3:1 against white. */
const OUTCOMES: { key: Outcome; label: string; colour: string }[] = [
  { key: 'ok', label: 'Answered', colour: '#1a7f37' },
  { key: 'node_error', label: 'Node error', colour: '#b35900' },
  { key: 'refused', label: 'Refused', colour: '#c62828' },
  { key: 'rate_limited', label: 'Rate limited', colour: '#6a1b9a' },
  { key: 'unauthorized', label: 'Unauthorized', colour: '#455a64' },
];

/** Read this often; the proxy itself publishes its counts every PROXY_USAGE_INTERVAL_MS (60 s by default). */
const POLL_MS = 5000;

function outcomeDatasets(rows: { calls: NodeUsage['totals']['calls'] }[]): ChartDataset<'bar', number[]>[] {
  return OUTCOMES.map((outcome) => ({ label: outcome.label, data: rows.map((row) => row.calls[outcome.key]), backgroundColor: outcome.colour }));
}

/** A node's calls over the last hour: per outcome by minute, per method, with the numbers in tables. */
export function Usage({ nodeId }: { nodeId: string }) {
  const { client } = useConsole();
  const { error, run } = useApi();
  const [usage, setUsage] = useState<NodeUsage | null>(null);
  usePolling(
    async () => {
      const result = await run(() => client.nodes.usage(nodeId));
      if (result.ok) setUsage(result.value);
    },
    POLL_MS,
    `${nodeId}`,
  );

  const overTime = useMemo(() => {
    const series = usage?.series ?? [];
    return {
      labels: series.map((bucket) => new Date(bucket.time).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })),
      datasets: outcomeDatasets(series),
    };
  }, [usage]);
  const perMethod = useMemo(() => {
    const methods = usage?.methods ?? [];
    return { labels: methods.map((method) => method.method), datasets: outcomeDatasets(methods) };
  }, [usage]);

  return (
    <section aria-labelledby="usage-title" className="panel">
      <h2 id="usage-title">Usage</h2>
      <Alert error={error} />
      {usage && (
        <>
          <p>
            {usage.totals.total} {usage.totals.total === 1 ? 'call' : 'calls'} in the last hour ({usage.totals.calls.ok} answered), {usage.totals.bytesOut} bytes out. The proxy reports its
            counts every minute or so.
          </p>
          <div className="charts">
            <figure>
              <figcaption>Calls per minute, by outcome</figcaption>
              <BarChart
                labels={overTime.labels}
                datasets={overTime.datasets}
                description={`Bar chart of calls per minute over the last hour, by outcome: ${usage.totals.total} in all.`}
              />
            </figure>
            <figure>
              <figcaption>Calls per method, by outcome</figcaption>
              <BarChart
                horizontal
                labels={perMethod.labels}
                datasets={perMethod.datasets}
                description={`Bar chart of calls per method: ${usage.methods.map((method) => `${method.method} ${method.total}`).join(', ') || 'none yet'}.`}
              />
            </figure>
          </div>
          {usage.methods.length === 0 ? (
            <p>No calls yet.</p>
          ) : (
            <TableWrap label="Calls per method">
              <table className="usage-table">
                <caption>Calls per method in the last hour</caption>
                <thead>
                  <tr>
                    <th scope="col">Method</th>
                    {OUTCOMES.map((outcome) => (
                      <th scope="col" key={outcome.key}>
                        {outcome.label}
                      </th>
                    ))}
                    <th scope="col">Total</th>
                  </tr>
                </thead>
                <tbody>
                  {usage.methods.map((method) => (
                    <tr key={method.method} data-method={method.method}>
                      <th scope="row" className="mono">
                        {method.method}
                      </th>
                      {OUTCOMES.map((outcome) => (
                        <td key={outcome.key}>{method.calls[outcome.key]}</td>
                      ))}
                      <td data-total>{method.total}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          )}
        </>
      )}
    </section>
  );
}
