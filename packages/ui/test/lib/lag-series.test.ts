import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lagChartModel } from '../../src/lib/lag-series.ts';

const sample = (time: string, parts: [string, number, number][]) => ({
  time,
  lag: parts.reduce((s, [, , lag]) => s + lag, 0),
  partitions: parts.map(([topic, partition, lag]) => ({ topic, partition, lag })),
});

test('the total and each partition that lagged, scaled to the box; the y axis tops at the highest total', () => {
  const history = {
    id: 'g',
    sampleSeconds: 30,
    keepMinutes: 60,
    samples: [
      sample('2026-11-26T10:00:00.000Z', [
        ['a', 0, 10],
        ['a', 1, 0],
      ]),
      sample('2026-11-26T10:00:30.000Z', [
        ['a', 0, 4],
        ['a', 1, 0],
      ]),
      sample('2026-11-26T10:01:00.000Z', [
        ['a', 0, 0],
        ['a', 1, 0],
      ]),
    ],
  };
  assert.deepEqual(lagChartModel(history, 100, 50), {
    lines: [
      { label: 'total', points: '0.0,0.0 50.0,30.0 100.0,50.0', latest: 0 },
      { label: 'a[0]', points: '0.0,0.0 50.0,30.0 100.0,50.0', latest: 0 },
    ],
    max: 10,
    from: Date.parse('2026-11-26T10:00:00.000Z'),
    to: Date.parse('2026-11-26T10:01:00.000Z'),
  });
});

test('no samples: one empty total line; at most maxPartitions partitions, the most lagging', () => {
  assert.deepEqual(lagChartModel({ id: 'g', sampleSeconds: 30, keepMinutes: 60, samples: [] }, 100, 50), {
    lines: [{ label: 'total', points: '', latest: 0 }],
    max: 1,
    from: 0,
    to: 0,
  });
  const wide = lagChartModel(
    {
      id: 'g',
      sampleSeconds: 30,
      keepMinutes: 60,
      samples: [
        sample('2026-11-26T10:00:00.000Z', [
          ['t', 0, 1],
          ['t', 1, 5],
          ['t', 2, 3],
        ]),
      ],
    },
    100,
    50,
    2,
  );
  assert.deepEqual(
    wide.lines.map((l) => [l.label, l.points, l.latest]),
    [
      ['total', '100.0,0.0', 9],
      ['t[1]', '100.0,22.2', 5],
      ['t[2]', '100.0,33.3', 3],
    ],
  );
});
