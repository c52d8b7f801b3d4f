import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pdlFieldReference } from '../../src/tasks/eval.ts';
import { T0, errorOf, makeTask, run, single, value, violations } from './task-harness.ts';

test('rename, set (text and computed) and remove, in order, each seeing the earlier ones', () => {
  const task = makeTask('EVAL', {
    eval: [
      { condition: '', action: 'rename', field: 'usr', value: 'user' },
      { action: 'set', field: 'label', value: '"text"' },
      { action: 'set', field: 'next', value: 'port + 1' },
      { action: 'set', field: 'who', value: 'upper(user)' },
      { action: 'remove', field: 'junk' },
    ],
  });
  assert.deepEqual(single(run(task, { usr: 'bob', port: 442, junk: true })), {
    value: { port: 442, user: 'bob', label: 'text', next: 443, who: 'BOB' },
    timestamp: T0,
  });
});

test('conditions are PDL queries; entries whose condition fails are skipped', () => {
  const task = makeTask('EVAL', {
    eval: [
      { condition: 'group="admins"', action: 'set', field: 'privileged', value: 'true' },
      { condition: 'NOT group="admins"', action: 'set', field: 'privileged', value: 'false' },
      { condition: 'port>1024', action: 'remove', field: 'port' },
    ],
  });
  assert.deepEqual(value(run(task, { group: 'admins', port: 22 })), { group: 'admins', port: 22, privileged: true });
  assert.deepEqual(value(run(task, { group: 'users', port: 8080 })), { group: 'users', privileged: false });
});

test('nested and odd field names; rename of a missing field is a no-op; rename overwrites', () => {
  const task = makeTask('EVAL', {
    eval: [
      { action: 'rename', field: 'proc.path', value: 'image' },
      { action: 'rename', field: 'missing', value: 'x' },
      { action: 'rename', field: 'a', value: 'b' },
      { action: 'set', field: 'meta.odd field', value: '1' },
      { action: 'remove', field: 'proc.pid' },
    ],
  });
  assert.deepEqual(value(run(task, { proc: { path: 'C:\\nc.exe', pid: 4 }, a: 1, b: 2 })), {
    proc: {},
    image: 'C:\\nc.exe',
    b: 1,
    meta: { 'odd field': 1 },
  });
  assert.equal(pdlFieldReference('a.b-c:d._e'), 'a.b-c:d._e');
  assert.equal(pdlFieldReference('x.odd field'), 'x.`odd field`');
  assert.equal(pdlFieldReference('a..b'), '`a..b`');
  assert.equal(pdlFieldReference('q`\\'), '`q\\`\\\\`');
});

test('a failing expression sets null (PDL never throws into the stream)', () => {
  const task = makeTask('EVAL', { eval: [{ action: 'set', field: 'r', value: 'a / 0' }] });
  assert.deepEqual(value(run(task, { a: 1 })), { a: 1, r: null });
});

test('text is parsed as JSON; other text is a task error', () => {
  const task = makeTask('EVAL', { eval: [{ action: 'remove', field: 'a' }] });
  assert.deepEqual(value(run(task, '{"a":1,"b":2}')), { b: 2 });
  assert.match(errorOf(run(task, 'a=1')), /^the record is text that is not JSON/);
});

test('definition: every bad entry is listed with its index', () => {
  assert.deepEqual(violations('EVAL', {}), ['definition.eval: is required']);
  assert.deepEqual(
    violations('EVAL', {
      eval: [
        { action: 'copy', field: 'a' },
        { action: 'set', field: 'b' },
      ],
    }),
    ['definition.eval[0].action: must be one of rename, set, remove', 'definition.eval[1].value: is required'],
  );
  assert.deepEqual(
    violations('EVAL', {
      eval: [
        { condition: 'a=', action: 'remove', field: 'x' },
        { action: 'set', field: 'y', value: '1 +' },
        { action: 'rename', field: 'z', value: '' },
        { action: 'set', field: 'w', value: ' ' },
      ],
    }),
    [
      "definition.eval[0].condition: PDL line 1, column 3: expected a value after '=', found end of input",
      "definition.eval[1].value: PDL line 1, column 4: expected a value after '+', found end of input",
      'definition.eval[2].value: rename needs the new field name in value',
      'definition.eval[3].value: set needs a PDL eval expression in value, e.g. "\\"text\\"" for a text or "a + 1"',
    ],
  );
});
