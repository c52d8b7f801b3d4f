import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { StoredRule } from '@weir/contract';
import { BacktestEvaluator } from '../../src/backtests/backtest-evaluator.ts';
import { alertId } from '../../src/stream/process/alert-record.ts';
import type { FetchedRecord } from '../../src/stream/records.ts';

const rule = (id: string, pdl: string, enabled = true): StoredRule =>
  ({ id, name: id, description: '', pdl, annotations: [], enabled }) as StoredRule;

function record(partition: number, offset: number, event: Record<string, unknown>): FetchedRecord {
  return {
    topic: 'logins',
    partition,
    offset: BigInt(offset),
    key: undefined,
    value: Buffer.from(JSON.stringify(event)),
    timestamp: BigInt(Number(event['_time'] ?? 0)),
  } as unknown as FetchedRecord;
}

const noLookups = { get: () => undefined };

describe('BacktestEvaluator: the engine stage over rules, without Kafka', () => {
  test('a query rule: one alert per matching record, its id from rule id + source coordinates (as the live alerts topic)', () => {
    const e = new BacktestEvaluator([rule('fail', 'action="fail"')], noLookups, 'logins', 2);
    assert.deepEqual(e.record(record(0, 7, { action: 'ok', _time: 1 })), []);
    const [alert, ...more] = e.record(record(1, 9, { action: 'fail', user: 'ann', _time: 2 }));
    assert.equal(more.length, 0);
    const source = { topic: 'logins', partition: 1, offset: 9n, key: undefined, value: undefined, timestamp: 2n };
    assert.equal(alert!.id, alertId('fail', source, 0, ''));
    assert.equal(alert!.rule, 'fail');
    assert.equal(alert!.alert['user'], 'ann');
  });

  test('a correlation routed by group: its alert comes with the record that completed it, spread over partitions', () => {
    const e = new BacktestEvaluator(
      [rule('burst', 'action="fail" | event_count timespan=1m group_by user where _aggregation.value >= 3')],
      noLookups,
      'logins',
      3,
    );
    const t0 = Date.UTC(2019, 0, 1);
    const got = [0, 1, 2].flatMap((i) => e.record(record(i, 100 + i, { action: 'fail', user: 'bob', _time: t0 + i })));
    assert.equal(got.length, 1);
    const source = { topic: 'logins', partition: 2, offset: 102n, key: undefined, value: undefined, timestamp: 0n };
    assert.equal(got[0]!.id, alertId('burst', source, 0, ''));
    assert.equal((got[0]!.alert['_aggregation'] as { value: number }).value, 3);
    // another group's events keep their own count
    assert.deepEqual(e.record(record(0, 200, { action: 'fail', user: 'eve', _time: t0 + 5 })), []);
  });

  test('a disabled rule raises nothing; a record that is not JSON is counted (its dead letter, never written), not an alert', () => {
    const e = new BacktestEvaluator([rule('off', 'action="fail"', false)], noLookups, 'logins', 1);
    assert.deepEqual(e.record(record(0, 0, { action: 'fail' })), []);
    const broken = { ...record(0, 1, {}), value: Buffer.from('not json') } as FetchedRecord;
    assert.deepEqual(e.record(broken), []);
    assert.equal(e.deadLetters, 1);
  });
});
