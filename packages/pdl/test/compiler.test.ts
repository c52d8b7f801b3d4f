import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compile, parse } from '../src/index.ts';
import type { LookupTable } from '../src/index.ts';

describe('compile', () => {
  test('accepts text or an AST, and exposes the AST', () => {
    const ast = parse('a = 1');
    assert.equal(compile(ast).ast, ast);
    assert.deepEqual(compile('a = 1').run({ a: 1 }), { a: 1 });
  });

  test('run never mutates its input; query-only programs return the input itself', () => {
    const event = { a: 1, nested: { b: 2 } };
    const snapshot = structuredClone(event);
    assert.equal(compile('a = 1').run(event), event);
    const out = compile('a = 1 | eval nested.b = 3, c = 4 | rename a AS z | fields remove nested.b').run(event);
    assert.deepEqual(out, { nested: {}, c: 4, z: 1 });
    assert.deepEqual(event, snapshot);
  });

  test('run returns null when a stage drops the event; non-objects give null', () => {
    assert.equal(compile('a = 1 | b = 2').run({ a: 1 }), null);
    assert.equal(compile('a = 1').run(null), null);
    assert.equal(compile('a = 1').run([1]), null);
    assert.deepEqual(compile('a = 1').feed('x'), []);
  });

  test('hasCorrelation; run on a correlation returns its first output', () => {
    assert.equal(compile('a = 1 | eval b = 2').hasCorrelation, false);
    const c = compile('event_count timespan=1m reset=false where _aggregation.value >= 2');
    assert.equal(c.hasCorrelation, true);
    assert.equal(c.run({ _time: 1 }), null);
    assert.equal((c.run({ _time: 2 })?.['_aggregation'] as Record<string, unknown>)['value'], 2);
  });

  test('a failing lookup resolver does not throw into the stream: counted as an evaluation error', () => {
    let down = false;
    const lookups = {
      get(_id: string): LookupTable | undefined {
        if (down) throw new Error('store down');
        return { rows: [] };
      },
    };
    const c = compile('lookup geo ip OUTPUT city', { lookups });
    const failing = compile('lookup geo ip OUTPUT city', { lookups });
    assert.deepEqual(c.run({ ip: 1 }), { ip: 1 });
    down = true;
    assert.equal(failing.run({ ip: 1 }), null);
    assert.deepEqual(failing.feed({ ip: 1 }), []);
    assert.equal(failing.counters.evaluationErrors, 2);
  });

  test('compiled once: evaluating 100,000 events against a rule is fast and allocation-light', () => {
    const rule = compile(
      'winlog.channel = "Security" AND EventID IN [4624, 4625] AND user != "SYSTEM" AND proc ~= "(?i)\\\\\\\\cmd\\.exe$"',
    );
    const event = { winlog: { channel: 'Security' }, EventID: '4625', user: 'bob', proc: 'C:\\Windows\\CMD.exe' };
    const start = performance.now();
    let hits = 0;
    for (let i = 0; i < 100_000; i++) if (rule.run(event) !== null) hits++;
    assert.equal(hits, 100_000);
    assert.ok(performance.now() - start < 2000);
  });
});
