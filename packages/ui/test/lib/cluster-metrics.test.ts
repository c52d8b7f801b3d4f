import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MetricsSummary } from '@weir/client';
import { clusterReading, labelsOf, total } from '../../src/lib/cluster-metrics.ts';

function summary(node: string, time: number, recordsIn: number, extra: Partial<MetricsSummary> = {}): MetricsSummary {
  return {
    node,
    time,
    workers: [{ worker: '0', state: 'RUNNING' }],
    recordsIn: [{ topology: 'auth', value: recordsIn }],
    recordsOut: [{ topology: 'auth', topic: 'alerts', value: recordsIn / 2 }],
    deadLettered: [],
    alerts: [{ topology: 'auth', value: 1 }],
    ruleMatches: [{ rule: 'failed-login', value: 3 }],
    ruleSuppressed: [
      { rule: 'failed-login', outcome: 'suppressed', value: 5 },
      { rule: 'failed-login', outcome: 'duplicate', value: 1 },
    ],
    lag: [],
    ...extra,
  };
}

test('totals are added up over the nodes, per topology and per rule', () => {
  const r = clusterReading(new Map(), [summary('a', 1000, 10), summary('b', 1000, 30)], 1000);
  assert.equal(r.nodes, 2);
  assert.equal(total(r.totals, 'in'), 40);
  assert.equal(total(r.totals, 'in', 'auth'), 40);
  assert.equal(total(r.totals, 'out', 'auth', 'alerts'), 20);
  assert.equal(total(r.totals, 'rule', 'failed-login'), 6);
  // suppressed alerts only: duplicates (an input record read again) are not
  assert.equal(total(r.totals, 'suppressed', 'failed-login'), 10);
  assert.deepEqual(labelsOf(r.totals, 'out'), [['auth', 'alerts']]);
  assert.equal(r.rates, undefined, 'no rate from a first reading');
});

test('rates are taken per node, on its own clock, then added; a restarted node counts from zero', () => {
  const before = new Map([
    ['a', summary('a', 1000, 10)],
    ['b', summary('b', 5000, 100)],
  ]);
  // a: +20 in 2 s → 10/s; b restarted (100 → 8) 4 s later → 8 / 4 s = 2/s; c is new: no rate yet.
  const r = clusterReading(before, [summary('a', 3000, 30), summary('b', 9000, 8), summary('c', 3000, 50)], 3000);
  assert.equal(total(r.rates!, 'in'), 12);
  assert.equal(total(r.totals, 'in'), 88);
});

test('consumer lag counts each partition once, at its highest reading (every node of a group measures it)', () => {
  const lag = (values: number[]) => values.map((value, p) => ({ topic: 'logs', partition: String(p), value }));
  const r = clusterReading(
    new Map(),
    [summary('a', 0, 0, { lag: lag([5, 0]) }), summary('b', 0, 0, { lag: lag([3, 7]) })],
    0,
  );
  assert.equal(r.lag, 12);
});
