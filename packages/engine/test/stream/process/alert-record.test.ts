import assert from 'node:assert/strict';
import type { AlertMetadata } from '@weir/contract';
import { test } from 'node:test';
import { compile, setOutputNames } from '@weir/pdl';
import type { RuleEntry } from '../../../src/rules/rule-book.ts';
import { alertId, alertRecordValue, ordinalOf } from '../../../src/stream/process/alert-record.ts';
import type { SourceRecord } from '../../../src/stream/records.ts';
import type { TaskRecord } from '../../../src/tasks/index.ts';

/** An alerts-topic record's value as a test reads it. */
type AlertValue = Record<string, unknown> & { _alert: AlertMetadata };

const rule = (id: string, more: Partial<RuleEntry> = {}): RuleEntry => ({
  id,
  name: id,
  annotations: [],
  enabled: true,
  compiled: compile('a=1'),
  ...more,
});
const source = (offset: bigint): SourceRecord => ({
  topic: 'in',
  partition: 3,
  offset,
  key: undefined,
  value: undefined,
  timestamp: 5n,
});
const parse = (b: Buffer) => JSON.parse(b.toString()) as AlertValue;

test('without a source record (a window closed idle) the id comes from the rule and the alert itself', () => {
  const r = rule('c1');
  const a: TaskRecord = { value: { n: 3, _time: 9 }, timestamp: 20, rule: r };
  const value = parse(alertRecordValue(a, undefined, 0));
  assert.equal(value._alert.source, null);
  assert.equal(value._alert.time, 9);
  assert.equal(value._alert.severity, 'medium');
  assert.equal(value._alert.id, alertId('c1', undefined, 0, '{"n":3,"_time":9}'));
  assert.notEqual(value._alert.id, alertId('c1', undefined, 0, '{"n":4,"_time":9}'));
});

test('no `_time`: the record timestamp is the time; an alert of a rule over alerts gets its own `_alert`, once', () => {
  const r = rule('over', { severity: 'critical' });
  const prior = { id: 'x'.repeat(32), severity: 'low', techniques: [], time: 1, source: null };
  const value = parse(alertRecordValue({ value: { _alert: prior, b: 1 }, timestamp: 42, rule: r }, source(1n), 0));
  assert.deepEqual(Object.keys(value), ['_alert', 'b']);
  assert.equal(value._alert.severity, 'critical');
  assert.equal(value._alert.time, 42);
  assert.deepEqual(value._alert.source, { topic: 'in', partition: 3, offset: 1 });
});

test('the ordinal counts the earlier alerts of the same rule: two alerts of one record and rule differ', () => {
  const [r1, r2] = [rule('r1'), rule('r2')];
  const alerts: TaskRecord[] = [r1, r2, r1, r1].map((r) => ({ value: {}, timestamp: 0, rule: r }));
  assert.deepEqual(
    alerts.map((_, i) => ordinalOf(alerts, i)),
    [0, 0, 1, 2],
  );
  assert.notEqual(alertId('r1', source(1n), 0, ''), alertId('r1', source(1n), 1, ''));
  assert.equal(
    parse(alertRecordValue({ value: {}, timestamp: 0, rule: r1 }, source(1n), 0))._alert.id,
    alertId('r1', source(1n), 0, ''),
  );
});

test('a record without a rule (not raised by APPLY_RULES) is written as it is', () => {
  assert.equal(alertRecordValue({ value: { a: 1 }, timestamp: 0 }, source(1n), 0).toString(), '{"a":1}');
});

test("with the original's output names the alerts topic keeps the original's record: no `_alert`", (t) => {
  setOutputNames('original');
  t.after(() => setOutputNames('weir'));
  const value = { padasRule: { id: 'r1' }, a: 1 };
  assert.equal(
    alertRecordValue({ value, timestamp: 0, rule: rule('r1') }, source(1n), 0).toString(),
    JSON.stringify(value),
  );
});

test("a suppressed rule's alert carries its window's id and suppression; an update record its own source", () => {
  const r = rule('s1');
  const suppression = { count: 0, firstSeen: 9, lastSeen: 9, fields: { user: 'a' }, window: { start: 0, end: 60_000 } };
  const kept = parse(
    alertRecordValue(
      { value: { _time: 9 }, timestamp: 9, rule: r, alertOverride: { id: 'f'.repeat(32), suppression } },
      source(7n),
      0,
    ),
  );
  assert.deepEqual(kept._alert, {
    id: 'f'.repeat(32),
    severity: 'medium',
    techniques: [],
    time: 9,
    source: { topic: 'in', partition: 3, offset: 7 },
    suppression,
  });
  const override = {
    id: 'f'.repeat(32),
    source: { topic: 'in', partition: 1, offset: 2 },
    suppression: { ...suppression, count: 4, lastSeen: 50 },
  };
  const update = parse(
    alertRecordValue({ value: { _time: 9 }, timestamp: 9, rule: r, alertOverride: override }, undefined, 0),
  );
  assert.deepEqual(
    [update._alert.id, update._alert.source, update._alert.suppression],
    [override.id, override.source, override.suppression],
  );
});

test('the ids stay those of earlier versions (dedup across versions): pinned values', () => {
  // SHA-256 of the rule id, NUL, then the source record's topic, partition, offset and the ordinal (NUL between)
  const at = (topic: string, partition: number, offset: bigint): SourceRecord => ({
    ...source(offset),
    topic,
    partition,
  });
  assert.equal(alertId('r1', at('logs', 2, 42n), 1, '{}'), 'd500b07e9b66c6a5fd4a7e1981d310f9');
  assert.equal(alertId('règle-é', at('logs', 0, 7n), 0, '{}'), '509942144837431561f40e982162a157');
  // without a source record: of the rule id, NUL, and the alert's JSON
  assert.equal(alertId('c1', undefined, 0, '{"n":3,"_time":9}'), 'd69c0178d6d027fc09db34c0f3ba292e');
});

test('an alert serialised for the outputs is not serialised again: the same bytes', () => {
  const value = { a: 1, _rule: { id: 'r1' }, _time: 9 };
  const bytes = new Map([[value, Buffer.from('{"a":1,"_rule":{"id":"r1"},"_time":9}')]]);
  const alert: TaskRecord = { value, timestamp: 9, rule: rule('r1') };
  const once = alertRecordValue(alert, source(1n), 0, bytes);
  assert.deepEqual(once, alertRecordValue(alert, source(1n), 0));
  // the bytes are taken from `bytes` (stale bytes there would show: not the object's JSON)
  bytes.set(value, Buffer.from('{"b":2}'));
  assert.equal(parse(alertRecordValue(alert, source(1n), 0, bytes)).b, 2);
});
