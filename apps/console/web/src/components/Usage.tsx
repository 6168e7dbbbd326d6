import type { NodeUsage } from '@cloud/sdk/browser';
import { useMemo, useState } from 'react';
import { useApi, useConsole } from '../context';
import { usePolling } from '../polling';
import { Alert } from './Alert';
import { BarChart } from './BarChart';
import { TableWrap } from './TableWrap';
import { bucketMeaning, CALLS_APPEAR_WITHIN_S, methodChartData, methodChartHeight, OUTCOMES, outcomeDatasets, USAGE_POLL_MS } from '../usage-chart';

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
    USAGE_POLL_MS,
    `${nodeId}`,
  );

  const overTime = useMemo(() => {
    const series = usage?.series ?? [];
    return {
      labels: series.map((bucket) => new Date(bucket.time).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })),
      datasets: outcomeDatasets(series),
    };
  }, [usage]);
  const perMethod = useMemo(() => methodChartData(usage?.methods ?? []), [usage]);
  const buckets = (usage?.methods ?? []).flatMap((each) => {
    const meaning = bucketMeaning(each.method);
    return meaning === undefined ? [] : [{ method: each.method, meaning }];
  });

  return (
    <section aria-labelledby="usage-title" className="panel">
      <h2 id="usage-title">Usage</h2>
      <Alert error={error} />
      {usage && usage.totals.total === 0 && (
        <p data-testid="usage-empty">No calls in the last hour yet. A call shows here within about {CALLS_APPEAR_WITHIN_S} seconds of being made.</p>
      )}
      {usage && usage.totals.total > 0 && (
        <>
          <p>
            {usage.totals.total} {usage.totals.total === 1 ? 'call' : 'calls'} in the last hour ({usage.totals.calls.ok} answered,{' '}
            <span data-testid="usage-cached">{usage.totals.cachedCalls} from the proxy&apos;s cache</span>), {usage.totals.bytesOut} bytes out. A call shows
            here within about {CALLS_APPEAR_WITHIN_S} seconds of being made.
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
            <figure data-testid="calls-per-method">
              <figcaption>Calls per method, by outcome</figcaption>
              <BarChart
                horizontal
                labels={perMethod.labels}
                datasets={perMethod.datasets}
                height={methodChartHeight(perMethod.labels.length)}
                description={`Bar chart of calls per method: ${usage.methods.map((method) => `${method.method} ${method.total}`).join(', ')}.`}
              />
            </figure>
          </div>
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
                      <td key={outcome.key} data-outcome={outcome.key}>
                        {method.calls[outcome.key]}
                      </td>
                    ))}
                    <td data-total>{method.total}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          {buckets.length > 0 && (
            <dl className="usage-buckets" data-testid="usage-buckets">
              {buckets.map((bucket) => (
                <div key={bucket.method}>
                  <dt className="mono">{bucket.method}</dt>
                  <dd>{bucket.meaning}</dd>
                </div>
              ))}
            </dl>
          )}
        </>
      )}
    </section>
  );
}
