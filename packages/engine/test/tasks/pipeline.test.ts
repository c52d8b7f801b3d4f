import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compile } from '@weir/pdl';
import { runPipeline } from '../../src/tasks/pipeline.ts';
import type { CompiledTask, RuleEntry, RuleSource, TaskRecord } from '../../src/tasks/task-function.ts';
import { T0, makeTask } from './task-harness.ts';

const rules: RuleSource = {
  get: (id): RuleEntry | undefined =>
    ({
      admin: {
        id: 'admin',
        name: 'Admin login',
        annotations: ['T1078'],
        enabled: true,
        compiled: compile('group="admins"'),
      },
      ssh: { id: 'ssh', name: 'SSH', annotations: [], enabled: true, compiled: compile('port=22') },
    })[id],
};

/** Records as written: value and timestamp (an alert's `rule` is checked on its own). */
const plain = (records: readonly TaskRecord[]) => records.map(({ value, timestamp }) => ({ value, timestamp }));

test('pipeline test shape: raw key=value text → parsed fields, _raw and an integer _time', () => {
  const tasks = [makeTask('PARSE_KV', {}), makeTask('TIMESTAMP', { field: 'ts', format: 'epoch' })];
  const result = runPipeline(tasks, { value: 'user=bob,ts=1700000000.5', timestamp: 1 });
  assert.deepEqual(result, {
    records: [
      {
        value: { user: 'bob', ts: 1700000000.5, _raw: 'user=bob,ts=1700000000.5', _time: 1700000000500 },
        timestamp: 1700000000500,
      },
    ],
    alerts: [],
    failures: [],
  });
});

test('an event without _time gets the record timestamp; an existing _time stays', () => {
  const parse = [makeTask('PARSE_KV', {})];
  assert.deepEqual(runPipeline(parse, { value: 'a=1', timestamp: T0 }).records, [
    { value: { a: 1, _raw: 'a=1', _time: T0 }, timestamp: T0 },
  ]);
  assert.deepEqual(runPipeline(parse, { value: '_time=5', timestamp: T0 }).records, [
    { value: { _time: 5, _raw: '_time=5' }, timestamp: T0 },
  ]);
  assert.deepEqual(
    runPipeline([makeTask('OUTPUT_FIELD', { field: 'a' })], { value: { a: 'x' }, timestamp: T0 }).records,
    [{ value: 'x', timestamp: T0 }],
    'text results stay text',
  );
  assert.deepEqual(runPipeline([], { value: 'raw', timestamp: T0 }).records, [{ value: 'raw', timestamp: T0 }]);
});

test('the reference pipeline: PARSE_KV → TIMESTAMP → EVAL → APPLY_RULES; alerts in records and alerts', () => {
  const tasks = [
    makeTask('PARSE_KV', {}),
    makeTask('TIMESTAMP', { field: 'time', format: 'yyyy-MM-dd HH:mm:ss' }),
    makeTask('EVAL', {
      eval: [{ condition: 'user IN ["root", "alice"]', action: 'set', field: 'group', value: '"admins"' }],
    }),
    makeTask('APPLY_RULES', { rules: ['admin', 'ssh'] }, { rules }),
  ];
  const result = runPipeline(tasks, { value: 'user=alice port=22 time="2023-04-05 06:07:08"', timestamp: 1 });
  const base = {
    user: 'alice',
    port: 22,
    time: '2023-04-05 06:07:08',
    _raw: 'user=alice port=22 time="2023-04-05 06:07:08"',
    _time: 1680674828000,
    group: 'admins',
  };
  const expected = [
    {
      value: { ...base, _rule: { id: 'admin', name: 'Admin login', annotations: ['T1078'] } },
      timestamp: 1680674828000,
    },
    { value: { ...base, _rule: { id: 'ssh', name: 'SSH', annotations: [] } }, timestamp: 1680674828000 },
  ];
  assert.deepEqual(plain(result.records), expected);
  assert.deepEqual(plain(result.alerts), expected);
  assert.deepEqual(result.failures, []);
  assert.deepEqual(
    result.alerts.map((a) => a.rule?.id),
    ['admin', 'ssh'],
  );
  assert.deepEqual(runPipeline(tasks, { value: 'user=bob port=80 time="2023-04-05 06:07:08"', timestamp: 1 }), {
    records: [],
    alerts: [],
    failures: [],
  });
});

test('tasks after APPLY_RULES change the records, not the alerts as raised', () => {
  const tasks = [makeTask('APPLY_RULES', { rules: ['ssh'] }, { rules }), makeTask('OUTPUT_FIELD', { field: '_rule' })];
  const result = runPipeline(tasks, { value: { port: 22, _time: 9 }, timestamp: T0 });
  assert.deepEqual(result.records, [{ value: '{"id":"ssh","name":"SSH","annotations":[]}', timestamp: T0 }]);
  assert.deepEqual(plain(result.alerts), [
    { value: { port: 22, _time: 9, _rule: { id: 'ssh', name: 'SSH', annotations: [] } }, timestamp: T0 },
  ]);
  // the copy kept for the alerts topic keeps its rule
  assert.equal(result.alerts[0]!.rule?.id, 'ssh');
});

test('alerts of one event reach later tasks as copies of their own: a change to one leaves the others and the alerts topic as raised', () => {
  const both: RuleSource = {
    get: (id) => ({ id, name: id, annotations: [], enabled: true, compiled: compile('x.n = 1') }),
  };
  // a task that changes a nested value in place (a task may change the record it is given)
  const bump: CompiledTask = {
    id: 9,
    name: 'bump',
    function: 'EVAL',
    run: (record) => {
      const value = record.value as { x: { n: number } };
      value.x.n++;
      return { kind: 'records', records: [record] };
    },
  };
  const tasks = [makeTask('APPLY_RULES', { rules: ['a', 'b', 'c'] }, { rules: both }), bump];
  const result = runPipeline(tasks, { value: { x: { n: 1 }, _time: 9 }, timestamp: T0 });
  assert.deepEqual(
    result.records.map((r) => [(r.value as { _rule: { id: string } })._rule.id, (r.value as { x: { n: number } }).x.n]),
    [
      ['a', 2],
      ['b', 2],
      ['c', 2],
    ],
  );
  assert.deepEqual(
    result.alerts.map((r) => (r.value as { x: { n: number } }).x.n),
    [1, 1, 1],
  );
});

test('a task error stops that record and reports task, message and the failing input (for the DLQ)', () => {
  const tasks = [makeTask('PARSE_KV', {}), makeTask('OUTPUT_FIELD', { field: 'missing' })];
  const result = runPipeline(tasks, { value: 'a=1', timestamp: T0 });
  assert.deepEqual(result, {
    records: [],
    alerts: [],
    failures: [
      {
        task: { id: 7, name: 'test OUTPUT_FIELD', function: 'OUTPUT_FIELD' },
        message: 'field "missing" is missing; OUTPUT_FIELD needs it to build the text',
        record: { value: { a: 1, _raw: 'a=1' }, timestamp: T0 },
      },
    ],
  });
});

test('one failing alert does not stop its siblings; a throwing task becomes a failure, never an exception', () => {
  const picky = makeTask('OUTPUT_FIELD', { field: 'port' });
  const twoRules: RuleSource = {
    get: (id) => ({
      id,
      name: id,
      annotations: [],
      enabled: true,
      compiled: compile(id === 'drop' ? 'a=1 | fields remove port' : 'a=1'),
    }),
  };
  const result = runPipeline([makeTask('APPLY_RULES', { rules: ['keep', 'drop'] }, { rules: twoRules }), picky], {
    value: { a: 1, port: 5 },
    timestamp: T0,
  });
  assert.deepEqual(result.records, [{ value: '5', timestamp: T0 }]);
  assert.equal(result.alerts.length, 2);
  assert.equal(result.failures.length, 1);
  assert.equal(result.failures[0]?.message, 'field "port" is missing; OUTPUT_FIELD needs it to build the text');

  const broken: CompiledTask = {
    id: 9,
    name: 'broken',
    function: 'EVAL',
    run: () => {
      throw new Error('boom');
    },
  };
  assert.deepEqual(runPipeline([broken], { value: 'x', timestamp: 1 }), {
    records: [],
    alerts: [],
    failures: [
      {
        task: { id: 9, name: 'broken', function: 'EVAL' },
        message: 'internal error in EVAL: boom',
        record: { value: 'x', timestamp: 1 },
      },
    ],
  });
});

test('FILTER drops: nothing comes out and nothing fails', () => {
  const tasks = [makeTask('FILTER', { type: 'regex', value: 'keep' }), makeTask('PARSE_KV', {})];
  assert.deepEqual(runPipeline(tasks, { value: 'drop=1', timestamp: T0 }), { records: [], alerts: [], failures: [] });
});
