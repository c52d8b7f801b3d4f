import assert from 'node:assert/strict';
import { test } from 'node:test';
import { T0, errorOf, makeTask, run, single, value, violations } from './task-harness.ts';

test('cells assigned to fieldNames in order, trimmed, numerals converted, _raw kept', () => {
  const task = makeTask('PARSE_CSV', { fieldNames: 'time, user, port' });
  assert.deepEqual(single(run(task, '2023-04-05 , bob ,443')), {
    value: { time: '2023-04-05', user: 'bob', port: 443, _raw: '2023-04-05 , bob ,443' },
    timestamp: T0,
  });
});

test('quoted cells keep delimiters and "" is a quote', () => {
  const task = makeTask('PARSE_CSV', { fieldNames: 'a,b,c', keepRaw: false });
  assert.deepEqual(value(run(task, '"x, y","say ""hi""",0443')), { a: 'x, y', b: 'say "hi"', c: '0443' });
});

test('extra cells ignored, missing cells leave fields unset, empty cells are empty text', () => {
  const task = makeTask('PARSE_CSV', { fieldNames: 'a,b,c', keepRaw: false });
  assert.deepEqual(value(run(task, '1,2,3,4,5')), { a: 1, b: 2, c: 3 });
  assert.deepEqual(value(run(task, '1')), { a: 1 });
  assert.deepEqual(value(run(task, ',,x')), { a: '', b: '', c: 'x' });
});

test('delimiter and its alias delimeter; fieldNames stay comma-separated; empty names skip a cell', () => {
  assert.deepEqual(value(run(makeTask('PARSE_CSV', { fieldNames: 'a,b', delimiter: '|', keepRaw: false }), 'x|y')), {
    a: 'x',
    b: 'y',
  });
  assert.deepEqual(
    value(run(makeTask('PARSE_CSV', { fieldNames: 'a,b', delimeter: ';', rawFieldName: 'line' }), 'x;y')),
    { a: 'x', b: 'y', line: 'x;y' },
  );
  assert.deepEqual(value(run(makeTask('PARSE_CSV', { fieldNames: 'a,,c', keepRaw: false }), '1,2,3')), { a: 1, c: 3 });
});

test('events: the raw field is parsed; otherwise a task error', () => {
  const task = makeTask('PARSE_CSV', { fieldNames: 'a' });
  assert.deepEqual(value(run(task, { _raw: 'v', k: 1 })), { k: 1, a: 'v', _raw: 'v' });
  assert.equal(
    errorOf(run(task, { k: 1 })),
    'PARSE_CSV needs text: the record is an event without a text field "_raw"',
  );
});

test('definition: fieldNames required and must name a field', () => {
  assert.deepEqual(violations('PARSE_CSV', {}), ['definition.fieldNames: is required']);
  assert.deepEqual(violations('PARSE_CSV', { fieldNames: ' , ' }), [
    'definition.fieldNames: " , " names no field; give comma-separated names such as "time, user, action"',
  ]);
});
