import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compile, RuleIndex } from '../src/index.ts';
import type { Pipeline } from '../src/index.ts';
import {
  countEvent,
  guessedCost,
  keyChance,
  learnedCost,
  newCensus,
  ruleKeys,
  textStats,
} from '../src/keyStatistics.ts';
import { describeKey } from '../src/requiredConditions.ts';
import type { Key } from '../src/requiredConditions.ts';
import { candidates, indexEvent, indexOf, indexRule, keyOf, needOf } from './ruleIndexHelpers.ts';

describe('ruleKeys: the keys the rules name', () => {
  test('a key counts once per rule that names it; a field counts its distinct keys', () => {
    const named = ruleKeys([needOf('a = 1 AND a = 1 AND b = "x"'), undefined, needOf('a IN [1, 2]')]);
    const byText = (map: ReadonlyMap<string, number>): Record<string, number> =>
      Object.fromEntries([...map].map(([id, n]) => [describeKey(named.keys.get(id) as Key), n]));
    assert.deepEqual(byText(named.frequency), { 'equals a 1': 2, 'equals b "x"': 1, 'equals a 2': 1 });
    assert.deepEqual(Object.fromEntries(named.distinct), { a: 2, b: 1 });
  });
});

describe('the guessed chance that an event meets a key', () => {
  test('1% for an exact value, 50% for a boolean; a text by its characters, 64 times for a substring, twice for an affix', () => {
    assert.equal(keyChance(keyOf('a = "some text"'), 0, undefined), 0.01);
    assert.equal(keyChance(keyOf('a = true'), 0, undefined), 0.5);
    assert.ok(Math.abs(keyChance(keyOf('a = "ab*"'), 0, undefined) - 0.15 * 0.15 * 2) < 1e-12);
    assert.ok(Math.abs(keyChance(keyOf('a ?= "a-"'), 0, undefined) - 0.15 * 0.3 * 64) < 1e-12);
    assert.ok(Math.abs(keyChance(keyOf('a = "*é"'), 0, undefined) - 0.0002 * 2) < 1e-12);
  });

  test('four times the share of the other rules naming the key, substrings counted four times', () => {
    assert.equal(keyChance(keyOf('a = 1'), 0.25, undefined), 1);
    assert.equal(keyChance(keyOf('a ?= "xyzxyzxyz"'), 0.25, undefined), 4);
  });

  test("a text most of the field's texts end with is a poor key (textStats)", () => {
    const suffixes = ['f = "*\\\\a.exe"', 'f = "*\\\\b.exe"', 'f = "*.exe"'].map(keyOf);
    const stats = textStats(suffixes).get('f');
    assert.equal(stats?.values, 3);
    assert.deepEqual(Object.fromEntries(stats?.suffixes ?? []), { '\\a.exe': 1, '\\b.exe': 1, '.exe': 3 });
    assert.equal(keyChance(suffixes[2] as Key, 0, stats), 1);
    assert.ok(keyChance(suffixes[0] as Key, 0, stats) < 1e-4);
  });

  test('guessedCost: a key more rules name costs more; among equal keys, one on a field of more values costs less', () => {
    const named = ruleKeys(['a = 1 AND b = 1', 'a = 1 AND b = 2', 'c = 3'].map(needOf));
    const cost = guessedCost(named, 3);
    assert.ok(cost(keyOf('a = 1')) > cost(keyOf('b = 1')));
    assert.ok(cost(keyOf('b = 1')) < cost(keyOf('c = 3')));
  });
});

describe('the census: key rates learned from events', () => {
  test('counts the events that met each key until its goal; the learned cost is the share of events', () => {
    const keys = ['a = 1', 'b = "x"', 'a = 2'].map(keyOf);
    const census = newCensus(keys, 2);
    assert.equal(countEvent(census, { a: 1 }), false);
    assert.equal(countEvent(census, { a: [1, 1], b: 'x' }), true);
    const cost = learnedCost(census, () => 0);
    assert.deepEqual(keys.map(cost), [2 / 3, 1 / 3, 0]);
    assert.deepEqual(keys.map(learnedCost(census, () => 1)), [1, 2 / 3, 1 / 3]);
  });
});

describe('RuleIndex, keys guessed from the rules', () => {
  test('the rarest required value is indexed', () => {
    // EventID = 1 is required by every rule: indexing Image keeps events of other images away
    const { index } = indexOf(
      'EventID = 1 AND Image = "a"',
      'EventID = 1 AND Image = "b"',
      'EventID = 1 AND Image = "c"',
    );
    assert.deepEqual(candidates(index, { EventID: 1, Image: 'b' }), [1]);
    assert.deepEqual(candidates(index, { EventID: 1 }), []);
  });
});

describe('RuleIndex, keys learned from the events seen (learnEvents)', () => {
  test('after learning, a rule is indexed by the condition the events met least', () => {
    const compiled = ['CommandLine ?= "report" AND tags IN ["t1", "t2"]', 'EventID = 4'].map((r) => compile(r));
    const index = new RuleIndex(compiled, { learnEvents: 3 });
    // guessed from the rules alone: a six-letter text is rarer than one of two exact values
    assert.deepEqual(index.keysOf(0)?.keys, ['contains CommandLine "report"']);
    const common = { CommandLine: 'daily report', EventID: 4 };
    for (let i = 0; i < 2; i++) assert.deepEqual(candidates(index, common), [0, 1]);
    assert.equal(index.learned, false);
    // the third event completes the count: the keys are chosen again before it is looked up
    assert.deepEqual(candidates(index, common), [1]);
    assert.equal(index.learned, true);
    assert.deepEqual(index.keysOf(0)?.keys, ['equals tags "t1"', 'equals tags "t2"']);
    assert.deepEqual(candidates(index, common), [1]);
    assert.deepEqual(candidates(index, { CommandLine: 'x report', tags: ['t0', 't2'] }), [0]);
    assert.deepEqual(candidates(index, { CommandLine: 'x', tags: 't1' }), [0]);
    // learnEvents 0: never
    const fixed = new RuleIndex(compiled, { learnEvents: 0 });
    for (let i = 0; i < 5; i++) fixed.select(common);
    assert.equal(fixed.learned, false);
    assert.deepEqual(fixed.keysOf(0)?.keys, ['contains CommandLine "report"']);
  });

  test('the candidates keep every match before, while and after learning (property)', () => {
    fc.assert(
      fc.property(
        fc.array(indexRule, { minLength: 1, maxLength: 12 }),
        fc.array(indexEvent, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 6 }),
        (asts, events, learnEvents) => {
          const compiled = asts.map((ast) => compile(ast as unknown as Pipeline));
          const index = new RuleIndex(compiled, { learnEvents });
          // every event twice: the second pass runs on keys learned from the first
          for (const e of [...events, ...events]) {
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
      { numRuns: 800 },
    );
  });
});
