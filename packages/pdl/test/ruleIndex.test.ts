import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compile, RuleIndex } from '../src/index.ts';
import type { Pipeline } from '../src/index.ts';
import { candidates, indexEvent, indexOf, indexRule } from './ruleIndexHelpers.ts';

// The index as a whole: the order of the candidates, the rules always candidates, the reused array,
// and the property that evaluating only the candidates finds every match. How conditions become keys
// (requiredConditions), the key table, the event walk, the guards and the learned statistics have
// their own tests.
describe('RuleIndex', () => {
  test('an event meets only the rules whose indexed value it holds, in rule order', () => {
    const { index } = indexOf(
      'EventID = 1 AND Image = "C:\\\\d.exe"',
      'EventID = 1 AND Image IN ["C:\\\\b.exe", "C:\\\\a.exe"]',
      'CommandLine ?= "x"',
      'EventID = 3 AND port IN [443, 80]',
      'EventID = 1 OR Image = "C:\\\\c.exe"',
      'EventID > 1',
    );
    assert.equal(index.size, 6);
    assert.equal(index.indexedCount, 5);
    assert.deepEqual(candidates(index, { EventID: 1, Image: 'C:\\d.exe' }), [0, 4, 5]);
    assert.deepEqual(candidates(index, { EventID: 1, Image: 'C:\\a.exe' }), [1, 4, 5]);
    assert.deepEqual(candidates(index, { EventID: 1, Image: 'C:\\b.exe', CommandLine: 'axb' }), [1, 2, 4, 5]);
    assert.deepEqual(candidates(index, { EventID: 3, port: 80 }), [3, 5]);
    assert.deepEqual(candidates(index, { EventID: 3, Image: 'C:\\c.exe' }), [3, 4, 5]); // rule 3 is keyed by EventID = 3
    assert.deepEqual(candidates(index, {}), [5]);
    assert.deepEqual(candidates(index, 'text'), [5]);
  });

  test("correlation rules, 'always' slots and rules without an AST are always candidates; 'never' slots never", () => {
    const compiled = [
      compile('a = 1 | event_count timespan=1m'),
      'always' as const,
      compile('a = 2'),
      { hasCorrelation: false },
      'never' as const,
      'always' as const,
    ];
    const index = new RuleIndex(compiled);
    assert.equal(index.indexedCount, 2);
    assert.deepEqual(candidates(index, { a: 3 }), [0, 1, 3, 5]);
    assert.deepEqual(candidates(index, { a: 2 }), [0, 1, 2, 3, 5]);
    assert.deepEqual(candidates(index, 'text'), [0, 1, 3, 5]);
    assert.deepEqual(index.keysOf(4), { keys: [], guards: [] });
    assert.equal(index.keysOf(1), undefined);
  });

  test('an empty slot (null, undefined) is refused: the caller says always or never', () => {
    for (const empty of [null, undefined])
      assert.throws(
        () => new RuleIndex([compile('a = 1'), empty as unknown as 'never']),
        new TypeError(`RuleIndex: the rule at position 1 is ${String(empty)}; pass 'always' or 'never'`),
      );
  });

  test('the returned array is reused between calls and stays ordered with many candidates', () => {
    const rules = Array.from({ length: 200 }, (_, i) =>
      i % 3 === 0 ? `a = ${i % 7} AND b ?= "x"` : i % 3 === 1 ? `b IN ["${i % 5}", "z"]` : `c > ${i}`,
    );
    const { index, compiled } = indexOf(...rules);
    const event = { a: 3, b: ['1', 'z', '4', 3], c: 150 };
    const got = candidates(index, event);
    assert.deepEqual(
      got,
      [...got].sort((x, y) => x - y),
    );
    assert.equal(new Set(got).size, got.length);
    const matching = compiled.flatMap((c, i) => (c.run(event) === null ? [] : [i]));
    assert.ok(matching.length > 10);
    assert.deepEqual(
      got.filter((i) => compiled[i]?.run(event) !== null),
      matching,
    );
  });
});

describe('RuleIndex, second keys', () => {
  test('a rule of an AND needs one key of its cheapest part and one of another (text) part', () => {
    const curlRule = 'EventID = 1 AND Image = i"*\\\\curl.exe" AND (CommandLine ?= i" --form" OR CommandLine ?= "-T")';
    // alone, its command line would be searched for the second key only: no second key
    assert.equal(new RuleIndex([compile(curlRule)], { secondKeyBelow: Infinity }).keysOf(0)?.second, undefined);
    // with rules keyed by substrings of the command line (either case), the search is there anyway
    const compiled = [curlRule, 'CommandLine ?= i"mimikatz"', 'CommandLine ?= "xyz"'].map((r) => compile(r));
    // keys are guessed costly here (no events seen): take the second choice whatever its cost
    const index = new RuleIndex(compiled, { secondKeyBelow: Infinity });
    assert.deepEqual(index.keysOf(0), {
      keys: ['suffix Image i"\\\\curl.exe"'],
      guards: ['equals EventID 1'],
      second: ['contains CommandLine i" --form"', 'contains CommandLine "-T"'],
    });
    const curl = { EventID: 1, Image: 'C:\\Windows\\CURL.EXE' };
    assert.deepEqual(candidates(index, { ...curl, CommandLine: 'curl.exe -k https://x' }), []);
    assert.deepEqual(candidates(index, { ...curl, CommandLine: 'curl.exe --FORM a=@b' }), [0]);
    assert.deepEqual(candidates(index, { ...curl, CommandLine: ['x', '-T'] }), [0]);
    assert.deepEqual(candidates(index, { ...curl, CommandLine: null }), []);
    assert.deepEqual(candidates(index, curl), []);
    assert.deepEqual(candidates(index, { CommandLine: '--form' }), []);
    for (const e of [
      { ...curl, CommandLine: 'x --form' },
      { ...curl, CommandLine: 'x' },
    ])
      assert.deepEqual(
        candidates(index, e).filter((i) => compiled[i]?.run(e) !== null),
        compiled.flatMap((c, i) => (c.run(e) === null ? [] : [i])),
      );
  });

  test('no second key when the other parts are exact values (the guards), an OR, or too common (secondKeyBelow)', () => {
    const compiled = ['a = 1 AND b = 2 AND c = 3', 'a ?= "x" OR b ?= "y"', 'a ?= "xyz" AND b ?= "uvw"'].map((r) =>
      compile(r),
    );
    const index = new RuleIndex(compiled, { secondKeyBelow: Infinity });
    assert.equal(index.keysOf(0)?.second, undefined);
    assert.equal(index.keysOf(1)?.second, undefined);
    assert.deepEqual(index.keysOf(2)?.second, ['contains b "uvw"']);
    assert.equal(new RuleIndex(compiled, { secondKeyBelow: 0 }).keysOf(2)?.second, undefined);
  });
});

describe('RuleIndex property', () => {
  test('the rules matching an event are the same whether all rules run or only the candidates', () => {
    fc.assert(
      fc.property(
        fc.array(indexRule, { minLength: 1, maxLength: 12 }),
        fc.array(indexEvent, { minLength: 1, maxLength: 8 }),
        (asts, events) => {
          const compiled = asts.map((ast) => compile(ast as unknown as Pipeline));
          // every rule that can have a second key gets one (whatever its cost), so both choices are exercised
          const index = new RuleIndex(compiled, { secondKeyBelow: Infinity });
          for (const e of events) {
            const all = compiled.flatMap((c, i) => (c.run(e) === null ? [] : [i]));
            const got = [...index.candidates(e)];
            for (let i = 1; i < got.length; i++)
              assert.ok((got[i - 1] as number) < (got[i] as number), 'ascending, no duplicates');
            assert.deepEqual(
              got.filter((i) => compiled[i]?.run(e) !== null),
              all,
              JSON.stringify(e),
            );
          }
        },
      ),
      { numRuns: 1500 },
    );
  });
});
