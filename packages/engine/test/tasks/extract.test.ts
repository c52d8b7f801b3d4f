import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkTask } from '../../src/tasks/compile-task.ts';
import { T0, makeTask, run, single, value, violations } from './task-harness.ts';

test('text: one field per named group, _raw kept, numerals converted', () => {
  const task = makeTask('EXTRACT', { regex: 'user=(?<user>\\w+) port=(?<port>\\d+)' });
  assert.deepEqual(single(run(task, 'login user=bob port=0022 and user=eve port=1')), {
    value: { _raw: 'login user=bob port=0022 and user=eve port=1', user: 'bob', port: '0022' },
    timestamp: T0,
  });
  assert.deepEqual(value(run(task, 'user=amy port=22')), { _raw: 'user=amy port=22', user: 'amy', port: 22 });
});

test('no match: the event passes with no new fields; unmatched optional groups stay unset', () => {
  const task = makeTask('EXTRACT', { regex: 'id=(?<id>\\d+)(?: tag=(?<tag>\\w+))?' });
  assert.deepEqual(value(run(task, 'nothing here')), { _raw: 'nothing here' });
  assert.deepEqual(value(run(task, 'id=5')), { _raw: 'id=5', id: 5 });
  assert.deepEqual(value(run(makeTask('EXTRACT', { regex: '(?<a>x)', keepRaw: false }), 'y')), {});
});

test('events: field (default _raw) is matched; other fields by name, numbers as text; non-text never matches', () => {
  const task = makeTask('EXTRACT', { regex: '(?<first>\\w+)@(?<domain>[\\w.]+)', field: 'mail' });
  assert.deepEqual(value(run(task, { mail: 'bob@example.org' })), {
    mail: 'bob@example.org',
    first: 'bob',
    domain: 'example.org',
  });
  assert.deepEqual(value(run(task, { mail: ['bob@example.org'] })), { mail: ['bob@example.org'] });
  assert.deepEqual(value(run(makeTask('EXTRACT', { regex: '^(?<year>\\d{4})', field: 'd' }), { d: 20230405 })), {
    d: 20230405,
    year: 2023,
  });
  assert.deepEqual(value(run(makeTask('EXTRACT', { regex: '(?<w>\\w+)' }), { _raw: 'hi', x: 1 })), {
    _raw: 'hi',
    x: 1,
    w: 'hi',
  });
  assert.deepEqual(value(run(makeTask('EXTRACT', { regex: '(?<w>\\w+)', rawFieldName: 'line' }), 'hi')), {
    line: 'hi',
    w: 'hi',
  });
});

test('RE2 syntax: (?i) works; look-arounds are rejected when the task is compiled', () => {
  assert.deepEqual(value(run(makeTask('EXTRACT', { regex: '(?i)USER=(?<u>\\w+)', keepRaw: false }), 'user=x')), {
    u: 'x',
  });
  const [bad] = violations('EXTRACT', { regex: '(?<=a)(?<b>b)' });
  assert.match(
    bad ?? '',
    /^definition\.regex: invalid regular expression "\(\?<=a\)\(\?<b>b\)": .+; use RE2 syntax \(no look-arounds or back-references\)$/,
  );
  assert.deepEqual(violations('EXTRACT', {}), ['definition.regex: is required']);
});

test("a regex without named groups (the original's own example) is accepted and extracts nothing", () => {
  assert.deepEqual(
    checkTask({
      id: 1,
      name: 'MyTask Name',
      function: 'EXTRACT',
      definition: { field: 'somefield', regex: 'someregex text here', keepRaw: false },
    }),
    [],
  );
  const task = makeTask('EXTRACT', { field: 'somefield', regex: 'someregex text here', keepRaw: false });
  assert.deepEqual(value(run(task, { somefield: 'has someregex text here', other: 1 })), {
    somefield: 'has someregex text here',
    other: 1,
  });
  assert.deepEqual(value(run(makeTask('EXTRACT', { regex: '\\d+' }), 'n 42')), { _raw: 'n 42' });
});

test('text that is a JSON object holding `field` is that event: its other fields are kept', () => {
  const task = makeTask('EXTRACT', { field: 'somefield', regex: 'user=(?<user>\\w+)' });
  assert.deepEqual(value(run(task, '{"somefield":"login user=bob","host":"h1"}')), {
    somefield: 'login user=bob',
    host: 'h1',
    user: 'bob',
  });
  // JSON text without the field is text, as before: matched itself and kept in _raw.
  assert.deepEqual(value(run(task, '{"x":"user=amy"}')), { _raw: '{"x":"user=amy"}', user: 'amy' });
});
