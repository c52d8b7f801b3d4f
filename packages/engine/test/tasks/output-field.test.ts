import assert from 'node:assert/strict';
import { test } from 'node:test';
import { T0, errorOf, makeTask, run, single, violations } from './task-harness.ts';

test('the field as text: strings as they are, numbers, booleans, null, objects and arrays as JSON', () => {
  const task = makeTask('OUTPUT_FIELD', { field: 'v' });
  assert.deepEqual(single(run(task, { v: 'hello' })), { value: 'hello', timestamp: T0 });
  assert.equal(single(run(task, { v: 42 })).value, '42');
  assert.equal(single(run(task, { v: true })).value, 'true');
  assert.equal(single(run(task, { v: null })).value, 'null');
  assert.equal(single(run(task, { v: { a: [1, 'x'] } })).value, '{"a":[1,"x"]}');
  assert.equal(single(run(task, { v: [1, 2] })).value, '[1,2]');
  assert.equal(single(run(task, '{"v":"from text"}')).value, 'from text');
});

test('nested fields; a missing field is a task error', () => {
  assert.equal(single(run(makeTask('OUTPUT_FIELD', { field: 'a.b' }), { a: { b: 'x' } })).value, 'x');
  assert.equal(
    errorOf(run(makeTask('OUTPUT_FIELD', { field: 'v' }), { w: 1 })),
    'field "v" is missing; OUTPUT_FIELD needs it to build the text',
  );
  assert.deepEqual(violations('OUTPUT_FIELD', {}), ['definition.field: is required']);
});
