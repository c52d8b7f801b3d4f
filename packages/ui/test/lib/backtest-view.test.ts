import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  alertRow,
  customRange,
  defaultTopic,
  localInputValue,
  presetRange,
  progressText,
  ruleInputTopics,
} from '../../src/lib/backtest-view.ts';

const now = Date.UTC(2026, 10, 27, 10, 0, 0);

test('the presets end now; typed times are read, and a missing, unreadable or reversed one is named', () => {
  assert.deepEqual(presetRange('15m', now), { from: now - 900_000, to: now });
  assert.deepEqual(presetRange('1h', now), { from: now - 3_600_000, to: now });
  assert.deepEqual(presetRange('24h', now), { from: now - 86_400_000, to: now });
  assert.deepEqual(customRange('2026-11-27T09:00:00Z', '2026-11-27T10:00:00Z'), { from: now - 3_600_000, to: now });
  // a datetime-local value is the browser's time zone: the round trip keeps the minute
  const local = localInputValue(now);
  assert.match(local, /^\d{4}-\d\d-\d\dT\d\d:\d\d$/);
  assert.equal(customRange(local, local).from, now);
  assert.throws(() => customRange('', '2026-11-27T10:00:00Z'), { message: 'From: give a date and time' });
  assert.throws(() => customRange('2026-11-27T10:00:00Z', 'soon'), { message: "To: 'soon' is not a date and time" });
  assert.throws(() => customRange('2026-11-27T10:00:00Z', '2026-11-27T09:00:00Z'), {
    message: 'To: the end (2026-11-27T09:00:00.000Z) is before the start (2026-11-27T10:00:00.000Z)',
  });
});

test("the topic offered first: the input of a topology running the rule, else the first that is not the engine's", () => {
  const tasks = [
    { id: 1, function: 'APPLY_RULES', definition: { rules: ['other'] } },
    { id: 2, function: 'APPLY_RULES', definition: { rules: ['fail', 'other'] } },
    { id: 3, function: 'PARSE_KV', definition: {} },
  ];
  const pipelines = [
    { id: 10, tasks: [3, 1] },
    { id: 11, tasks: [3, 2] },
  ];
  const topologies = [
    { pipelines: [10], input: { name: 'dns', keySerde: 'STRING', valueSerde: 'JSON' } },
    { pipelines: [11], input: { name: 'logins', keySerde: 'STRING', valueSerde: 'JSON' } },
    { pipelines: [10, 11], input: { name: 'logins', keySerde: 'STRING', valueSerde: 'JSON' } },
  ] as const;
  assert.deepEqual(ruleInputTopics('fail', tasks, pipelines, topologies), ['logins']);
  assert.deepEqual(ruleInputTopics('other', tasks, pipelines, topologies), ['dns', 'logins']);
  assert.deepEqual(ruleInputTopics('none', tasks, pipelines, topologies), []);
  const topics = ['_schemas', 'weir_alerts', 'dns', 'logins'];
  assert.equal(defaultTopic(['logins'], topics), 'logins');
  // an input topic not (yet) on the cluster is not offered
  assert.equal(defaultTopic(['gone'], topics), 'dns');
  assert.equal(defaultTopic([], ['weir_alerts']), 'weir_alerts');
  assert.equal(defaultTopic([], []), null);
});

test('progress in words; an alert as a row: time, its own fields, its source record', () => {
  assert.equal(
    progressText({ eventsRead: 12345, share: 0.4567, eventsPerSecond: 5000.4 }),
    '12,345 events read · 45% of the range · 5,000 events/s',
  );
  const alert = {
    user: 'root',
    action: 'login',
    host: { name: 'web-1', ip: '10.0.0.1' },
    tags: ['a'],
    _time: now,
    _rule: { id: 'fail', name: 'Fail' },
    _alert: { id: 'abc', time: now, source: { topic: 'logins', partition: 2, offset: 7 } },
  };
  assert.deepEqual(alertRow(alert), {
    id: 'abc',
    rule: 'fail',
    time: '2026-11-27T10:00:00.000Z',
    fields: 'user="root" action="login" host.name="web-1" host.ip="10.0.0.1"',
    source: '/messages?topic=logins&partition=2&offset=7',
    sourceLabel: 'logins / 2 / 7',
  });
  // an idle window's alert has no source record
  assert.deepEqual(alertRow({ n: 1, _alert: { id: 'x', source: null } }), {
    id: 'x',
    rule: '',
    time: '',
    fields: 'n=1',
    source: undefined,
    sourceLabel: '',
  });
});
