import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { describeKey } from '../src/requiredConditions.ts';
import type { Key, Need } from '../src/requiredConditions.ts';
import { guardsOf, RuleGuards } from '../src/ruleGuards.ts';
import { candidates, indexOf, keyOf, needOf } from './ruleIndexHelpers.ts';

describe('guardsOf: the equalities a rule also requires', () => {
  const guards = (query: string, chosen: string[], rank: (key: Key) => number = () => 0): string[] =>
    guardsOf(needOf(query) as Need, chosen.map(keyOf), rank).map(describeKey);

  test('exact keys under the top AND on other fields than the chosen keys, two at most, by rank', () => {
    const rule = 'Channel = "S" AND EventID = 1 AND flag = true AND Image = "*x" AND (u = 1 OR v = 2) AND w ?= "y"';
    assert.deepEqual(guards(rule, ['Image = "*x"']), ['equals Channel "S"', 'equals EventID 1']);
    const byName = (key: Key): number => -(key.path[0] as string).charCodeAt(0);
    assert.deepEqual(guards(rule, ['Image = "*x"'], byName), ['equals flag true', 'equals EventID 1']);
    assert.deepEqual(guards(rule, ['EventID = 1']), ['equals Channel "S"', 'equals flag true']);
    assert.deepEqual(guards('a = 1 AND a = 2 AND a = i"x"', ['a = 3']), ['equals a i"x"']);
    assert.deepEqual(guards('a = 1 OR b = 2', ['a = 1']), []);
  });
});

describe('RuleGuards', () => {
  // rule 0 needs EventID = 1 (and Channel = "S"), rule 1 EventID = 7, rule 2 u = i"bob", rule 3 nothing
  const guarded = (): { table: RuleGuards; kept: (event: Record<string, unknown>, epoch: number) => number[] } => {
    const table = new RuleGuards(4);
    table.set(0, ['EventID = 1', 'Channel = "S"'].map(keyOf));
    table.set(1, [keyOf('EventID = 7')]);
    table.set(2, [keyOf('u = i"BoB"')]);
    const kept = (event: Record<string, unknown>, epoch: number): number[] => {
      const found = Int32Array.from([0, 1, 2, 3]);
      return [...found.subarray(0, table.apply(event, found, 4, epoch))];
    };
    return { table, kept };
  };

  test('keeps the found rules whose guards the event meets', () => {
    const { table, kept } = guarded();
    assert.equal(table.fieldCount, 3);
    assert.deepEqual(kept({ EventID: 1, Channel: 'S', u: 'BOB' }, 1), [0, 2, 3]);
    assert.deepEqual(kept({ EventID: '7', Channel: 'S' }, 2), [1, 3]); // a canonical numeral meets 7
    assert.deepEqual(kept({ EventID: 1, Channel: 's' }, 3), [3]);
    assert.deepEqual(kept({ EventID: [1, 7], Channel: { x: 1 }, u: ['bob'] }, 4), [0, 1, 2, 3]); // undecided: kept
    assert.deepEqual(kept({}, 5), [3]);
  });

  test('a guard field is read once per epoch; resetEpoch forgets the reads; clear forgets the guards', () => {
    const { table, kept } = guarded();
    assert.deepEqual(kept({ EventID: 1, Channel: 'S' }, 6), [0, 3]);
    assert.deepEqual(kept({ EventID: 7, Channel: 'S' }, 6), [0, 3]); // the same event, as far as the guards know
    table.resetEpoch();
    assert.deepEqual(kept({ EventID: 7, Channel: 'S' }, 6), [1, 3]);
    table.clear();
    assert.equal(table.fieldCount, 0);
    assert.deepEqual(kept({}, 7), [0, 1, 2, 3]);
  });
});

describe('RuleIndex guards (a second required equality, such as a log source)', () => {
  test('a rule indexed by its image is not met by an event of another log source', () => {
    const rules = Array.from(
      { length: 6 },
      (_, i) => `Channel = "Sysmon" AND EventID = 1 AND Image = i"*\\\\tool${i}.exe"`,
    );
    rules.push(
      'Channel = "Sysmon" AND EventID = 7 AND Image = i"*\\\\tool0.exe"',
      'EventID = 1 AND flag = true AND Image = "x"',
    );
    const { index } = indexOf(...rules);
    assert.deepEqual(candidates(index, { Channel: 'Sysmon', EventID: 1, Image: 'C:\\TOOL0.exe' }), [0]);
    assert.deepEqual(candidates(index, { Channel: 'Sysmon', EventID: 7, Image: 'C:\\tool0.exe' }), [6]);
    assert.deepEqual(candidates(index, { Channel: 'Sysmon', EventID: '1', Image: 'C:\\tool0.exe' }), [0]); // a numeral meets 1
    assert.deepEqual(candidates(index, { Channel: 'Sysmon', EventID: [7, 1], Image: 'C:\\tool0.exe' }), [0, 6]); // an array: kept
    assert.deepEqual(candidates(index, { Channel: 'Sysmon', Image: 'C:\\tool0.exe' }), []);
    assert.deepEqual(candidates(index, { EventID: 1, flag: true, Image: 'x' }), [7]);
    assert.deepEqual(candidates(index, { EventID: 1, flag: 'true', Image: 'x' }), []);
  });
});
