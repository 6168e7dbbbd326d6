// The usage panel's pure parts: the charts' options, the per-method chart's height, and what the
// proxy's method buckets mean. No Chart.js here (its types are an ES module the unit tests' CommonJS
// cannot name): the shapes below are the parts of its options and datasets the console sets.

interface Axis {
  stacked: boolean;
  beginAtZero?: boolean;
  ticks: { color: string; precision?: number; autoSkip?: boolean; autoSkipPadding?: number; maxRotation?: number; font?: { size: number } };
}

/** The Chart.js options of a stacked bar chart (a ChartOptions<'bar'>). */
export interface BarChartOptions {
  indexAxis: 'x' | 'y';
  animation: false;
  maintainAspectRatio: boolean;
  responsive: boolean;
  scales: { x: Axis; y: Axis };
  plugins: { legend: { position: 'bottom'; labels: { color: string; boxWidth: number } } };
}

/** One outcome's bars (a ChartDataset<'bar', number[]>). */
export interface OutcomeDataset {
  label: string;
  data: number[];
  backgroundColor: string;
}

/**
 * Pixels per method in the per-method chart: room for a 12 px label with space around it. Every
 * label is drawn (no auto-skip), so the chart grows with the methods instead of skipping every
 * other name and leaving bars beside the wrong ones.
 */
export const METHOD_ROW_PX = 26;
/** The x axis, its ticks and the legend (two or three lines on a phone) below the bars. */
const AXES_AND_LEGEND_PX = 110;
/** As tall as the calls-per-minute chart beside it (16rem) for a few methods. */
const MIN_METHOD_CHART_PX = 256;

/** How tall the per-method chart is for `methods` methods. */
export function methodChartHeight(methods: number): number {
  return Math.max(MIN_METHOD_CHART_PX, AXES_AND_LEGEND_PX + methods * METHOD_ROW_PX);
}

/**
 * A stacked bar chart's options. Horizontal (one bar per method): every method's name on the y
 * axis, none skipped. Vertical (one bar per minute): times may be skipped, they stay in order.
 */
export function barChartOptions(horizontal: boolean): BarChartOptions {
  const values: Axis = { stacked: true, beginAtZero: true, ticks: { color: '#333', precision: 0 } };
  const categories: Axis = {
    stacked: true,
    ticks: { color: '#333', ...(horizontal ? { autoSkip: false, font: { size: 12 } } : { maxRotation: 0, autoSkipPadding: 12 }) },
  };
  return {
    indexAxis: horizontal ? 'y' : 'x',
    animation: false,
    maintainAspectRatio: false,
    responsive: true,
    scales: horizontal ? { x: values, y: categories } : { x: categories, y: values },
    plugins: { legend: { position: 'bottom', labels: { color: '#222', boxWidth: 14 } } },
  };
}

/** The proxy's outcomes, in words, each with a colour that holds 3:1 against white. */
export const OUTCOMES = [
  { key: 'ok', label: 'Answered', colour: '#1a7f37' },
  { key: 'node_error', label: 'Node error', colour: '#b35900' },
  { key: 'refused', label: 'Refused', colour: '#c62828' },
  { key: 'rate_limited', label: 'Rate limited', colour: '#6a1b9a' },
  { key: 'unauthorized', label: 'Unauthorized', colour: '#455a64' },
] as const;

export type Outcome = (typeof OUTCOMES)[number]['key'];
export type CallsByOutcome = Record<Outcome, number>;

/** One stacked dataset per outcome over `rows` (minutes or methods), in the rows' order. */
export function outcomeDatasets(rows: readonly { calls: CallsByOutcome }[]): OutcomeDataset[] {
  return OUTCOMES.map((outcome) => ({ label: outcome.label, data: rows.map((row) => row.calls[outcome.key]), backgroundColor: outcome.colour }));
}

/** The per-method chart's data: one label per method, in the report's order, and each outcome's calls at the same index. */
export function methodChartData(methods: readonly { method: string; calls: CallsByOutcome }[]): { labels: string[]; datasets: OutcomeDataset[] } {
  return { labels: methods.map((each) => each.method), datasets: outcomeDatasets(methods) };
}

/** The proxy's buckets that are not a method's name, and what is counted in each. */
const BUCKETS: Record<string, string> = {
  unread:
    'requests turned away before their body was read (wrong or missing credentials, over the rate, an address or Origin the access rules refuse), so the method they named is not known',
  other:
    'calls of a method the platform does not know (its name is not counted, so made-up names cannot fill this table), and requests the proxy could not read (not JSON, a batch over the limit)',
  rest: 'REST requests (GET /rest/…, health checks)',
  management: 'requests to the management address (/status, /logs)',
};

/** What a name in the usage means when it is not a method's own: a bucket, or a refused prefix (`personal_*`); undefined for a method's name. */
export function bucketMeaning(method: string): string | undefined {
  if (Object.hasOwn(BUCKETS, method)) return BUCKETS[method];
  if (method.endsWith('*')) return `calls of any method starting ${method.slice(0, -1)}, refused as a group by the platform`;
  return undefined;
}

/**
 * How soon a call shows in the panel: the proxy publishes its counts every 5 s by default
 * (PROXY_USAGE_INTERVAL_MS) and the panel reads them every USAGE_POLL_MS, so about 8 s at most;
 * said as 10 to leave room for a busy machine.
 */
export const USAGE_POLL_MS = 3000;
export const CALLS_APPEAR_WITHIN_S = 10;
