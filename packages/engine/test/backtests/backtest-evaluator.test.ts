import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { StoredRule } from '@weir/contract';
import { BacktestEvaluator, rulesSubject, type BacktestSubject } from '../../src/backtests/backtest-evaluator.ts';
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
    const e = new BacktestEvaluator(rulesSubject([rule('fail', 'action="fail"')]), noLookups, 'logins', 2);
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
      rulesSubject([
        rule('burst', 'action="fail" | event_count timespan=1m group_by user where _aggregation.value >= 3'),
      ]),
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
    const e = new BacktestEvaluator(rulesSubject([rule('off', 'action="fail"', false)]), noLookups, 'logins', 1);
    assert.deepEqual(e.record(record(0, 0, { action: 'fail' })), []);
    const broken = { ...record(0, 1, {}), value: Buffer.from('not json') } as FetchedRecord;
    assert.deepEqual(e.record(broken), []);
    assert.equal(e.deadLetters, 1);
  });

  test("a pipeline's tasks: parsed text, then rules; a correlation holds a stage of its own, its alert comes with the record that completed it", () => {
    const rules = [
      rule('fail', 'action="fail"'),
      rule('burst', 'action="fail" | event_count timespan=1m group_by user where _aggregation.value >= 2'),
    ];
    const subject: BacktestSubject = {
      tasks: [
        { id: 4, name: 'kv', function: 'PARSE_KV', definition: {} },
        { id: 5, name: 'rules', function: 'APPLY_RULES', definition: { rules: ['fail', 'burst'], matchAll: true } },
      ],
      rules,
    };
    const e = new BacktestEvaluator(subject, noLookups, 'logins', 2);
    const text = (partition: number, offset: number, value: string) =>
      ({ ...record(partition, offset, {}), value: Buffer.from(value), timestamp: 1000n }) as FetchedRecord;
    const first = e.record(text(0, 1, 'action=fail user=bob'));
    assert.deepEqual(
      first.map((a) => [a.rule, a.alert['user']]),
      [['fail', 'bob']],
    );
    const second = e.record(text(1, 1, 'action=fail user=bob'));
    assert.deepEqual(second.map((a) => a.rule).sort(), ['burst', 'fail']);
    const source = { topic: 'logins', partition: 1, offset: 1n, key: undefined, value: undefined, timestamp: 0n };
    assert.equal(second.find((a) => a.rule === 'burst')!.id, alertId('burst', source, 0, ''));
    assert.equal(e.deadLetters, 0);
  });

  test('a subject that cannot run (a task missing, or one that does not compile): every record a dead letter, as live', () => {
    const missing = new BacktestEvaluator(
      { tasks: [], rules: [], failure: 'task 7 of pipeline 1 does not exist' },
      noLookups,
      'logins',
      1,
    );
    assert.deepEqual(missing.record(record(0, 0, { action: 'fail' })), []);
    assert.equal(missing.deadLetters, 1);
    const broken = new BacktestEvaluator(
      { tasks: [{ id: 1, name: 'bad', function: 'PDL_EXPRESSION', definition: { pdl: 'action=' } }], rules: [] },
      noLookups,
      'logins',
      1,
    );
    assert.deepEqual(broken.record(record(0, 0, { action: 'fail' })), []);
    assert.equal(broken.deadLetters, 1);
  });
});
