import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LookupResolver } from '@weir/pdl';
import { T0, errorOf, makeTask, run, single, violations } from './task-harness.ts';

test('the PDL output is the record; no output is nothing', () => {
  const task = makeTask('PDL_EXPRESSION', {
    pdl: 'port=443 | eval risk=if(port>1024, "low", "high") | fields remove port',
  });
  assert.deepEqual(single(run(task, { port: 443, user: 'bob' })), {
    value: { user: 'bob', risk: 'high' },
    timestamp: T0,
  });
  assert.deepEqual(run(task, { port: 80 }), { kind: 'records', records: [] });
  assert.deepEqual(single(run(task, '{"port":443}')).value, { risk: 'high' });
  assert.match(errorOf(run(task, 'port=443')), /^the record is text that is not JSON/);
});

test('lookups from the environment', () => {
  const lookups: LookupResolver = {
    get: (id) => (id === 'users' ? { rows: [{ user: 'bob', dept: 'ops' }] } : undefined),
  };
  const task = makeTask('PDL_EXPRESSION', { pdl: 'lookup users user OUTPUT dept' }, { lookups });
  assert.deepEqual(single(run(task, { user: 'bob' })).value, { user: 'bob', dept: 'ops' });
  assert.deepEqual(violations('PDL_EXPRESSION', { pdl: 'lookup nope user OUTPUT dept' }, { lookups }).length, 1);
});

test('correlation stages: several events are fed, the output carries its _time as record timestamp', () => {
  const task = makeTask('PDL_EXPRESSION', {
    pdl: 'event_count timespan=5m group_by user where _aggregation.value >= 2',
  });
  assert.deepEqual(run(task, { user: 'a', _time: T0 }), { kind: 'records', records: [] });
  const out = single(run(task, { user: 'a' }, T0 + 1000));
  assert.equal(out.timestamp, T0 + 1000);
  assert.equal((out.value as { user: string }).user, 'a');
  assert.equal(typeof task.advanceTime, 'function');
  assert.deepEqual(task.advanceTime?.(T0 + 3_600_000), []);
  assert.equal(makeTask('PDL_EXPRESSION', { pdl: 'a=1' }).advanceTime, undefined);
});

test('definition: pdl required; syntax errors with line and column', () => {
  assert.deepEqual(violations('PDL_EXPRESSION', {}), ['definition.pdl: is required']);
  assert.deepEqual(violations('PDL_EXPRESSION', { pdl: 'a=1 |\n eval x=' }), [
    "definition.pdl: PDL line 2, column 9: expected a value after '=', found end of input",
  ]);
});
