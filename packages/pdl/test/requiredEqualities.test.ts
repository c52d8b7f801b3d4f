import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compile, parse, requiredEqualities, valueKey } from '../src/index.ts';

describe('requiredEqualities', () => {
  test('top-level AND-ed = and IN literals of the first query stage', () => {
    assert.deepEqual(requiredEqualities('EventID = 4625 AND (channel = "Security" AND user IN ["a", "b"]) AND x > 1 | eval y = 1'), [
      { field: 'EventID', path: ['EventID'], values: [4625] },
      { field: 'channel', path: ['channel'], values: ['Security'] },
      { field: 'user', path: ['user'], values: ['a', 'b'] },
    ]);
    assert.deepEqual(requiredEqualities(parse('winlog.channel = "Sysmon" AND enabled = true')), [
      { field: 'winlog.channel', path: ['winlog', 'channel'], values: ['Sysmon'] },
      { field: 'enabled', path: ['enabled'], values: [true] },
    ]);
  });

  test('nothing from OR, NOT, wildcards, null, fields, arrays or a later stage', () => {
    for (const text of [
      'a = 1 OR b = 2',
      'NOT a = 1',
      'a = "x*"',
      'a = null',
      'a = b',
      'a = [1, 2]',
      'a IN ["x", "y*"]',
      'a IN [1, null]',
      'a != 1',
      'eval x = 1 | a = 1',
      'event_count timespan=1m',
    ]) {
      assert.deepEqual(requiredEqualities(text), [], text);
    }
    assert.deepEqual(requiredEqualities('a = "x\\*"'), [{ field: 'a', path: ['a'], values: ['x*'] }]); // an escaped star is literal
  });

  test('soundness: whenever the rule matches, each required field has the valueKey of a listed value', () => {
    const rule = 'port = 443 AND user IN ["bob", "alice"] AND proto = "tcp"';
    const compiled = compile(rule);
    const required = requiredEqualities(rule);
    const events = [
      { port: '443', user: 'bob', proto: 'tcp' },
      { port: 443, user: ['x', 'alice'], proto: 'tcp' },
      { port: 443, user: 'carol', proto: 'tcp' },
    ];
    for (const event of events) {
      if (compiled.run(event) === null) continue;
      for (const r of required) {
        const value = (event as Record<string, unknown>)[r.field];
        const keys = (Array.isArray(value) ? value : [value]).map(valueKey);
        assert.ok(r.values.some((v) => keys.includes(valueKey(v))), `${r.field} in ${JSON.stringify(event)}`);
      }
    }
    assert.equal(valueKey(443), valueKey('443'));
    assert.notEqual(valueKey('443'), valueKey('0443'));
  });
});
