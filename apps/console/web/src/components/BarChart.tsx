import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip, type ChartDataset, type Plugin } from 'chart.js';
import { useEffect, useRef } from 'react';
import { barChartOptions } from '../usage-chart';

// Only the parts of Chart.js the console draws: stacked bar charts with a legend and tooltips.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/**
 * After each drawing, the category labels the chart drew, in order, each with where its label and
 * its bar are (px along the category axis), on the canvas as `data-drawn-labels`: what a person
 * reads beside each bar, for the browser tests to compare with the table.
 */
const drawnLabels: Plugin<'bar'> = {
  id: 'drawnLabels',
  afterDraw(chart) {
    const horizontal = chart.options.indexAxis === 'y';
    const scale = chart.scales[horizontal ? 'y' : 'x'];
    if (!scale) return;
    const metas = chart.data.datasets.map((_dataset, index) => chart.getDatasetMeta(index));
    const drawn = scale.ticks.map((tick) => {
      const bar = metas.map((meta) => meta.data[tick.value]).find((element) => element !== undefined);
      return { label: String(tick.label), at: Math.round(scale.getPixelForValue(tick.value)), bar: bar ? Math.round(horizontal ? bar.y : bar.x) : null };
    });
    chart.canvas.dataset.drawnLabels = JSON.stringify(drawn);
  },
};

/**
 * A stacked bar chart on a canvas, `height` px tall when given (else as its box in the CSS). The
 * canvas is an image with a short description for screen readers; the numbers themselves are in
 * a table next to each chart.
 */
export function BarChart(props: { labels: string[]; datasets: ChartDataset<'bar', number[]>[]; horizontal?: boolean; height?: number; description: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const chartRef = useRef<Chart<'bar', number[], string> | null>(null);
  const { labels, datasets, horizontal = false, height } = props;

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const chart = new Chart<'bar', number[], string>(canvas, {
      type: 'bar',
      data: { labels: [], datasets: [] },
      options: barChartOptions(horizontal),
      plugins: [drawnLabels],
    });
    chartRef.current = chart;
    return () => {
      chart.destroy();
      chartRef.current = null;
    };
  }, [horizontal]);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    chart.data.labels = labels;
    chart.data.datasets = datasets;
    chart.update('none');
  }, [labels, datasets]);

  return (
    <div className="chart" style={height === undefined ? undefined : { height: `${height}px` }}>
      <canvas ref={canvasRef} role="img" aria-label={props.description} />
    </div>
  );
}
