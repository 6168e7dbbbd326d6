import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip, type ChartDataset } from 'chart.js';
import { useEffect, useRef } from 'react';

// Only the parts of Chart.js the console draws: stacked bar charts with a legend and tooltips.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/**
 * A stacked bar chart on a canvas. The canvas is an image with a short description for screen
 * readers; the numbers themselves are in a table next to each chart.
 */
export function BarChart(props: { labels: string[]; datasets: ChartDataset<'bar', number[]>[]; horizontal?: boolean; description: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const chartRef = useRef<Chart<'bar', number[], string> | null>(null);
  const { labels, datasets, horizontal } = props;

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const chart = new Chart<'bar', number[], string>(canvas, {
      type: 'bar',
      data: { labels: [], datasets: [] },
      options: {
        indexAxis: horizontal ? 'y' : 'x',
        animation: false,
        maintainAspectRatio: false,
        responsive: true,
        scales: {
          x: { stacked: true, ticks: { color: '#333', maxRotation: 0, autoSkipPadding: 12 }, ...(horizontal ? { beginAtZero: true } : {}) },
          y: { stacked: true, ticks: { color: '#333', ...(horizontal ? {} : { precision: 0 }) }, ...(horizontal ? {} : { beginAtZero: true }) },
        },
        plugins: { legend: { position: 'bottom', labels: { color: '#222', boxWidth: 14 } } },
      },
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
    <div className="chart">
      <canvas ref={canvasRef} role="img" aria-label={props.description} />
    </div>
  );
}
