/**
 * A bar chart of counts over time for the terminal, with Unicode block characters: one column
 * per bucket (buckets summed into columns when there are more than `width`), eighths of a row
 * for the top of each bar, the largest value labelled on the y axis and the first and last times
 * under the x axis. A few lines of our own rather than a charting dependency: only bars are needed.
 */
const EIGHTHS = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

export interface ChartOptions {
  /** Rows of bars. */
  height?: number;
  /** Most columns; longer series are summed into this many. */
  width?: number;
}

export function barChart(points: readonly { label: string; value: number }[], options: ChartOptions = {}): string {
  const height = options.height ?? 8;
  const width = options.width ?? 72;
  if (points.length === 0) return '';
  const perColumn = Math.ceil(points.length / width);
  const columns: number[] = [];
  for (let start = 0; start < points.length; start += perColumn) {
    columns.push(points.slice(start, start + perColumn).reduce((sum, point) => sum + point.value, 0));
  }
  const max = Math.max(...columns);
  // In eighths of a row; a non-zero value shows at least one eighth.
  const bars = columns.map((value) => (value === 0 ? 0 : Math.max(1, Math.round((value / Math.max(max, 1)) * height * 8))));
  const axis = String(max).length;
  const lines: string[] = [];
  for (let row = height - 1; row >= 0; row -= 1) {
    const cells = bars.map((eighths) => EIGHTHS[Math.min(8, Math.max(0, eighths - row * 8))]).join('');
    const label = row === height - 1 ? String(max) : row === 0 ? '0' : '';
    lines.push(`${label.padStart(axis)} ┤${cells}`.trimEnd());
  }
  const first = points[0]!.label;
  const last = points[points.length - 1]!.label;
  const under = columns.length > first.length + last.length ? `${first}${last.padStart(columns.length - first.length)}` : first;
  lines.push(`${' '.repeat(axis)} └${'─'.repeat(columns.length)}`);
  lines.push(`${' '.repeat(axis + 2)}${under}`);
  return `${lines.join('\n')}\n`;
}
