import { barChartOptions, bucketMeaning, METHOD_ROW_PX, methodChartData, methodChartHeight } from '../web/src/usage-chart';

// The usage panel's per-method chart: Chart.js skipped every other method name at a fixed height
// (ticks.autoSkip), so a bar sat beside the name of the method after it. Every name is drawn now,
// and the chart is as tall as its methods need.

const calls = (ok: number, refused = 0) => ({ ok, node_error: 0, refused, rate_limited: 0, unauthorized: 0 });

describe('the per-method usage chart', () => {
  it('draws every method name on its category axis (no auto-skip); the minutes chart may skip times', () => {
    const perMethod = barChartOptions(true);
    expect(perMethod.indexAxis).toBe('y');
    expect(perMethod.scales.y.ticks.autoSkip).toBe(false);
    expect(perMethod.scales.x).toMatchObject({ beginAtZero: true, stacked: true });
    const perMinute = barChartOptions(false);
    expect(perMinute.indexAxis).toBe('x');
    expect(perMinute.scales.x.ticks.autoSkip).toBeUndefined();
    expect(perMinute.scales.y).toMatchObject({ beginAtZero: true, stacked: true });
  });

  it('is as tall as its methods need: a row of at least 26 px each past the axes and legend', () => {
    expect(methodChartHeight(0)).toBe(methodChartHeight(4));
    for (const methods of [10, 20, 40, 60]) {
      expect(methodChartHeight(methods)).toBeGreaterThanOrEqual(methods * METHOD_ROW_PX + 100);
      expect(methodChartHeight(methods + 1) - methodChartHeight(methods)).toBe(METHOD_ROW_PX);
    }
    // A 12 px label has room on each side.
    expect(METHOD_ROW_PX).toBeGreaterThanOrEqual(24);
  });

  it('puts each method’s calls at its label’s index, outcome by outcome', () => {
    const methods = [
      { method: 'getblockcount', calls: calls(12), total: 12 },
      { method: 'other', calls: calls(0, 10), total: 10 },
      { method: 'stop', calls: calls(0, 3), total: 3 },
    ];
    const { labels, datasets } = methodChartData(methods);
    expect(labels).toEqual(['getblockcount', 'other', 'stop']);
    expect(datasets.map((each) => each.label)).toEqual(['Answered', 'Node error', 'Refused', 'Rate limited', 'Unauthorized']);
    expect(datasets.find((each) => each.label === 'Answered')!.data).toEqual([12, 0, 0]);
    expect(datasets.find((each) => each.label === 'Refused')!.data).toEqual([0, 10, 3]);
  });

  it('says what the buckets that are not a method mean, unread included', () => {
    expect(bucketMeaning('unread')).toMatch(/before their body was read.*not known/);
    expect(bucketMeaning('other')).toMatch(/does not know/);
    expect(bucketMeaning('personal_*')).toBe('calls of any method starting personal_, refused as a group by the platform');
    expect(bucketMeaning('getblockcount')).toBeUndefined();
    // Not a prototype's key.
    expect(bucketMeaning('constructor')).toBeUndefined();
  });
});
