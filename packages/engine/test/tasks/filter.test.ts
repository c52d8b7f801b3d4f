import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorOf, makeTask, run, violations } from './task-harness.ts';
import type { TaskResult } from '../../src/tasks/task-function.ts';

const kept = (result: TaskResult): boolean => {
  assert.equal(result.kind, 'records');
  return result.kind === 'records' && result.records.length === 1;
};

test('regex keep (default action): text that matches passes unchanged, other text is dropped', () => {
  const task = makeTask('FILTER', { type: 'regex', value: 'error|fail' });
  const record = { value: 'disk failure on sda', timestamp: 1 };
  assert.deepEqual(task.run(record), { kind: 'records', records: [record] });
  const result = task.run(record);
  assert.strictEqual(result.kind === 'records' ? result.records[0] : null, record, 'the record is not changed');
  assert.deepEqual(run(task, 'all good'), { kind: 'records', records: [] });
});

test('regex drop: matching records are dropped', () => {
  const task = makeTask('FILTER', { type: 'regex', value: '^DEBUG', action: 'drop' });
  assert.equal(kept(run(task, 'DEBUG x')), false);
  assert.equal(kept(run(task, 'INFO x')), true);
});

test('regex on events: _raw when it is text, else the JSON text', () => {
  const task = makeTask('FILTER', { type: 'regex', value: 'user=bob' });
  assert.equal(kept(run(task, { _raw: 'user=bob', user: 'eve' })), true);
  assert.equal(kept(run(task, { _raw: 'user=eve', note: 'user=bob' })), false);
  assert.equal(kept(run(makeTask('FILTER', { type: 'regex', value: '"user":"bob"' }), { user: 'bob' })), true);
  assert.equal(kept(run(makeTask('FILTER', { type: 'regex', value: '"_raw":5' }), { _raw: 5 })), true);
});

test('pdl: kept when the PDL yields an event; the record stays as it was (text stays text)', () => {
  const task = makeTask('FILTER', { type: 'pdl', value: 'port=443 | eval extra=1' });
  const record = { value: '{"port":"443"}', timestamp: 1 };
  assert.deepEqual(task.run(record), { kind: 'records', records: [record] });
  const event = { port: 443 };
  assert.deepEqual(task.run({ value: event, timestamp: 1 }), {
    kind: 'records',
    records: [{ value: { port: 443 }, timestamp: 1 }],
  });
  assert.equal(kept(run(task, { port: 80 })), false);
  assert.equal(kept(run(makeTask('FILTER', { type: 'pdl', value: 'port=443', action: 'drop' }), { port: 80 })), true);
});

test('pdl on text that is not JSON is a task error', () => {
  assert.match(
    errorOf(run(makeTask('FILTER', { type: 'pdl', value: 'a=1' }), 'a=1')),
    /^the record is text that is not JSON/,
  );
});

test('definition: type and value required; bad type, action, regex and PDL are reported', () => {
  assert.deepEqual(violations('FILTER', {}), ['definition.type: is required', 'definition.value: is required']);
  assert.deepEqual(violations('FILTER', { type: 'glob', value: 'x', action: 'pass' }), [
    'definition.type: must be one of regex, pdl',
    'definition.action: must be one of keep, drop',
  ]);
  assert.deepEqual(violations('FILTER', { type: 'pdl', value: 'port=' }), [
    "definition.value: PDL line 1, column 6: expected a value after '=', found end of input",
  ]);
  assert.match(
    violations('FILTER', { type: 'regex', value: '(' })[0] ?? '',
    /^definition\.value: invalid regular expression "\(": /,
  );
});
