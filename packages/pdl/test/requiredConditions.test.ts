import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { cheapest, describeKey, secondCheapest } from '../src/requiredConditions.ts';
import type { Key, Need } from '../src/requiredConditions.ts';
import { assertKeepsMatches, candidates, indexOf, keyOf, needOf } from './ruleIndexHelpers.ts';

/** A query's need as text: `all(…)`, `any(…)`, or a key as RuleIndex.keysOf words it. */
const show = (need: Need | undefined): string =>
  need === undefined
    ? 'none'
    : need.kind === 'key'
      ? describeKey(need.key)
      : `${need.kind}(${need.parts.map(show).join(', ')})`;

describe('pipelineNeed: what a rule needs of an event', () => {
  test('an AND needs one of its parts, an OR and an IN list every part; wildcards give prefixes, suffixes, substrings', () => {
    assert.equal(
      show(needOf('EventID = 1 AND Image = "*\\\\cmd.exe"')),
      'all(equals EventID 1, suffix Image "\\\\cmd.exe")',
    );
    assert.equal(
      show(needOf('a IN [1, "x"] OR b ?= i"Foo*Bar"')),
      'any(any(equals a 1, equals a "x"), all(contains b i"foo", contains b i"bar"))',
    );
    assert.equal(show(needOf('a = "x*y*z"')), 'all(prefix a "x", contains a "y", suffix a "z")');
    assert.equal(show(needOf('c ~= "(?i)lsass"')), 'contains c i"l"');
  });

  test('only the first stage counts, and only when it is a query; NOT and an OR with an unkeyed operand need nothing', () => {
    assert.equal(show(needOf('a = 1 | eval b = 2')), 'equals a 1');
    assert.equal(show(needOf('eval b = 2 | a = 1')), 'none');
    assert.equal(show(needOf('NOT a = 1')), 'none');
    assert.equal(show(needOf('a = 1 OR b > 2')), 'none');
  });

  test('a key is identified by its kind, field, value and the value type (1 and "1" are two keys)', () => {
    const id = (query: string): string => keyOf(query).id;
    const ids = ['a = 1', 'a = "1"', 'a = i"1"', 'a = "1*"', 'b = 1', 'a = true'].map(id);
    assert.equal(new Set(ids).size, ids.length);
    // the same key however the rule writes it
    const inList = needOf('a IN [1]');
    const part = inList?.kind === 'any' ? inList.parts[0] : undefined;
    assert.equal(part?.kind === 'key' ? part.key.id : undefined, id('a = 1'));
  });
});

describe('cheapest: the keys of a need an event must meet one of', () => {
  const need = needOf('a = 1 AND (b = 2 OR c = 3)') as Need;
  const keys = (choice: { keys: Key[]; cost: number } | undefined): string[] | undefined =>
    choice?.keys.map(describeKey);

  test('of an AND the cheapest part (the first among equals), of an OR every part at the sum of their costs', () => {
    assert.deepEqual(keys(cheapest(need, () => 1)), ['equals a 1']);
    const choice = cheapest(need, (key) => (key.path[0] === 'a' ? 5 : 1));
    assert.deepEqual(keys(choice), ['equals b 2', 'equals c 3']);
    assert.equal(choice?.cost, 2);
  });
});

describe('RuleIndex, the conditions a rule is indexed by', () => {
  test('null, !=, NOT, an OR with an unindexable operand and later stages are not indexed', () => {
    const { index } = indexOf(
      'a = null',
      'a != 1',
      'NOT a = 1',
      'a = 1 OR b > 2',
      'eval b = 1 | a = 1',
      'a IN [1, null]',
      'a = "*"',
      'a ?= ""',
      'a ?= 1',
    );
    assert.equal(index.indexedCount, 0);
    assert.deepEqual(candidates(index, {}), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  test('wildcard patterns are indexed by their literal prefix, suffix or middle text', () => {
    const { index } = indexOf(
      'Image = "*\\\\cmd.exe"', // Sigma's endswith
      'Image = "C:\\\\Users\\\\*"', // startswith
      'Image = "*\\\\Temp\\\\*"', // contains
      'Image ?= "\\\\Temp\\\\"',
      'Image = "*.exe" AND EventID = 1',
      'Image = "a\\**"', // a literal asterisk: the prefix is "a*"
      'Image IN ["*x", "y*"]',
      'Image = "*\\\\powershell.exe" OR CommandLine ?= "-enc"',
    );
    assert.equal(index.indexedCount, 8);
    assert.deepEqual(candidates(index, { Image: 'C:\\Windows\\cmd.exe', EventID: 1 }), [0, 4]);
    assert.deepEqual(candidates(index, { Image: 'C:\\Users\\bob\\Temp\\x.exe' }), [1, 2, 3]); // rule 4 is keyed by EventID = 1, the rarer
    assert.deepEqual(candidates(index, { Image: 'C:\\Users\\bob\\Temp\\x' }), [1, 2, 3, 6]);
    assert.deepEqual(candidates(index, { Image: 'cmd.exe' }), []); // no backslash before cmd.exe
    assert.deepEqual(candidates(index, { Image: 'a*b' }), [5]);
    assert.deepEqual(candidates(index, { Image: 'ab' }), []);
    assert.deepEqual(candidates(index, { Image: ['yes', 'no', 1] }), [6]);
    assert.deepEqual(candidates(index, { Image: 'x', CommandLine: 'p -enc' }), [6, 7]);
    assert.deepEqual(candidates(index, { Image: 'D:\\powershell.exe' }), [7]);
    assert.deepEqual(candidates(index, { Image: 42 }), []);
  });
});

describe('RuleIndex, regular expressions by their required literal', () => {
  test('a rule with a regular expression is met only by a string holding its literal text', () => {
    const { index } = indexOf(
      'c ~= "cmd.{0,5}(?:/c|/r).+powershell"',
      'c ~= "(?i)\\\\s-e(nc|ncodedcommand)?\\\\s"',
      'c ~= "(?i)mimikatz"',
      'c ~= "\\\\d+"',
    );
    assert.deepEqual(index.keysOf(0)?.keys, ['contains c "powershell"']);
    assert.deepEqual(index.keysOf(1)?.keys, ['contains c i"-e"']);
    assert.deepEqual(index.keysOf(2)?.keys, ['contains c i"mimikatz"']);
    assert.equal(index.keysOf(3), undefined); // no literal: always a candidate
    assert.deepEqual(candidates(index, { c: 'cmd /c powershell /enc AAA' }), [0, 3]);
    assert.deepEqual(candidates(index, { c: 'x -E y' }), [1, 3]);
    assert.deepEqual(candidates(index, { c: ['a', 'MimiKatz.exe'] }), [2, 3]);
    assert.deepEqual(candidates(index, { c: 'PowerShell' }), [3]); // case-sensitive pattern
  });

  test('(?i) keys avoid the letter s: RE2 folds ſ (U+017F) to s, which toLowerCase does not', () => {
    const { index, compiled } = indexOf('c ~= "(?i)lsass"', 'c ~= "(?i)kerberos"');
    assert.deepEqual(index.keysOf(0)?.keys, ['contains c i"l"']);
    assert.deepEqual(index.keysOf(1)?.keys, ['contains c i"kerbero"']);
    for (const text of ['LſASS', 'lsaſſ', '\u212Aerberoſ', 'KERBEROS']) {
      const e = { c: text };
      const matching = compiled.flatMap((c, i) => (c.run(e) === null ? [] : [i]));
      assert.equal(matching.length, 1, text);
      assert.deepEqual(
        candidates(index, e).filter((i) => matching.includes(i)),
        matching,
        text,
      );
    }
  });

  test('property: regular expressions, (?i), Unicode case folding and arrays keep every match', () => {
    const unit = fc.constantFrom('a', 'b', 's', 'k', 'S', 'K', '\u017F', '\u212A', 'İ', '-', ' ', '.', 'é');
    const atom = fc.constantFrom(
      'a',
      'b',
      's',
      'k',
      'ab',
      'sk',
      '\\.',
      '.',
      '\\s',
      '[ab]',
      '(?:a|b)',
      '(?i:s)',
      'a?',
      'b+',
      'k*',
      '\\d',
      'é',
      '-',
    );
    const regex = fc
      .tuple(fc.boolean(), fc.array(atom, { minLength: 1, maxLength: 6 }))
      .map(([ci, atoms]) => (ci ? '(?i)' : '') + atoms.join(''));
    const rule = fc.oneof(
      {
        weight: 3,
        arbitrary: fc.tuple(fc.constantFrom('f', 'g'), regex).map(([f, r]) => `${f} ~= ${JSON.stringify(r)}`),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(regex, regex).map(([r, q]) => `f ~= ${JSON.stringify(r)} OR g ~= ${JSON.stringify(q)}`),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(regex, fc.string({ unit, minLength: 1, maxLength: 3 }))
          .map(([r, t]) => `f ~= ${JSON.stringify(r)} AND g ?= i${JSON.stringify(t)}`),
      },
    );
    const value = fc.oneof(
      fc.string({ unit, maxLength: 12 }),
      fc.array(fc.oneof(fc.string({ unit, maxLength: 8 }), fc.integer()), { maxLength: 3 }),
      fc.integer(),
    );
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 1, maxLength: 12 }),
        fc.array(fc.record({ f: value, g: value }, { requiredKeys: [] }), { minLength: 1, maxLength: 8 }),
        (rules, events) => {
          assertKeepsMatches(rules, events);
        },
      ),
      { numRuns: 1500 },
    );
  });
});

describe('secondCheapest: a second choice of keys from another part of an AND', () => {
  const cost = (key: Key): number => (key.kind === 'equals' ? 0.01 : 0.1 * String(key.value).length);
  const second = (query: string, below = Infinity): string[] | undefined =>
    secondCheapest(needOf(query) as Need, cost, below)?.keys.map(describeKey);

  test('the cheapest other part, nested ANDs flattened; parts of exact values only are the guards', () => {
    assert.deepEqual(second('EventID = 1 AND (Image = "*\\\\x.exe" AND (c ?= "ab" OR c ?= "cd"))'), [
      'contains c "ab"',
      'contains c "cd"',
    ]);
    assert.deepEqual(second('a ?= "x" AND b ?= "yy" AND c ?= "zzz"'), ['contains b "yy"']);
    assert.deepEqual(second('a = 1 AND b = 2 AND c ?= "xyz"'), ['contains c "xyz"']); // a first; b left to the guards
    assert.equal(second('a = 1 AND b = 2 AND c = 3'), undefined); // a first; b and c exact
    assert.equal(second('a ?= "x" OR b ?= "y"'), undefined);
    assert.equal(second('a ?= "x"'), undefined);
    assert.equal(second('a ?= "x" AND b ?= "yy"', 0.2), undefined); // 0.2 is not below 0.2
  });
});
