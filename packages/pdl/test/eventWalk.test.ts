import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { compile } from '../src/index.ts';
import { walkEvent } from '../src/eventWalk.ts';
import { buildTable } from '../src/keyTable.ts';
import { assertKeepsMatches, candidates, indexOf, keyOf } from './ruleIndexHelpers.ts';

describe('walkEvent', () => {
  // a = "x" stands for positions 0 and 2, b ?= "y" for 1 and 2
  const table = buildTable([
    [keyOf('a = "x"'), 0],
    [keyOf('b ?= "y"'), 1],
    [keyOf('a = "x"'), 2],
    [keyOf('b ?= "y"'), 2],
  ]);

  test('appends from `count` on the positions whose keys the event meets, each once per epoch', () => {
    const into = new Int32Array(8);
    const marks = new Uint32Array(3);
    const event = { a: 'x', b: 'zyz' };
    assert.equal(walkEvent(table, event, into, 0, marks, 1), 3);
    assert.deepEqual([...into.subarray(0, 3)], [0, 2, 1]);
    assert.equal(walkEvent(table, event, into, 3, marks, 1), 3); // the same epoch: every position seen
    assert.equal(walkEvent(table, event, into, 5, marks, 2), 8);
    assert.deepEqual([...into.subarray(5, 8)], [0, 2, 1]);
  });

  test('an array meets a key through any element; a value of another type or a missing field meets none', () => {
    const into = new Int32Array(8);
    const marks = new Uint32Array(3);
    assert.equal(walkEvent(table, { a: ['y', 'x'], b: 7 }, into, 0, marks, 1), 2);
    assert.deepEqual([...into.subarray(0, 2)], [0, 2]);
    assert.equal(walkEvent(table, { a: 1, b: ['x', ['y']], c: 'x' }, into, 0, marks, 2), 0);
  });

  test('a caseless key is met by the lower-cased string, a number key by its canonical numeral', () => {
    const mixed = buildTable([
      [keyOf('a = i"AbC"'), 0],
      [keyOf('n = 443'), 1],
    ]);
    const into = new Int32Array(2);
    const marks = new Uint32Array(2);
    assert.equal(walkEvent(mixed, { a: 'aBc', n: '443' }, into, 0, marks, 1), 2);
    assert.deepEqual([...into], [0, 1]);
    assert.equal(walkEvent(mixed, { a: 'abd', n: '0443' }, into, 0, marks, 2), 0);
  });
});

describe('RuleIndex, the fields of an event', () => {
  test('array fields: any element; nested paths; booleans', () => {
    const { index } = indexOf('tags = "a"', 'tags IN ["b", "c"]', 'n.x = true', 'n.x = false');
    assert.deepEqual(candidates(index, { tags: ['c', 'a', 'b'] }), [0, 1]);
    assert.deepEqual(candidates(index, { tags: [['a']] }), []);
    assert.deepEqual(candidates(index, { n: { x: true }, tags: 'b' }), [1, 2]);
    assert.deepEqual(candidates(index, { n: [{ x: false }] }), []); // paths do not go through arrays
    assert.deepEqual(candidates(index, { n: { x: [false, 1] } }), [3]);
  });

  test('an event reaches the fields of the rules through its nested objects only as getPath does', () => {
    const rules = Array.from({ length: 12 }, (_, i) => `a.b${i} = "v" OR a.c ?= "w${i}"`);
    rules.push('constructor = "x"', '__proto__.x = "v"', 'a.b0.c = "v"');
    const inherited = Object.create({ b1: 'v' }) as Record<string, unknown>;
    inherited['b0'] = 'v';
    assertKeepsMatches(rules, [
      { a: { b0: 'v', b5: 'v', c: 'w3 w11' } },
      { a: inherited },
      { a: [{ b0: 'v' }] },
      { a: { b0: { c: 'v' } } },
      { constructor: 'x' },
      JSON.parse('{"__proto__": {"x": "v"}}'),
    ]);
  });
});

describe('RuleIndex property, wildcard and substring keys', () => {
  // short texts over a small alphabet, so that patterns, heads and values often overlap
  const text = (maxLength: number): Arbitrary<string> => fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength });
  const patternText = fc.string({ unit: fc.constantFrom('a', 'b', 'a', 'b', '*'), minLength: 1, maxLength: 7 });
  const textRule = fc
    .tuple(fc.constantFrom('f', 'g'), fc.constantFrom('=', '?=', 'IN', '=|?='), patternText, patternText)
    .map(([f, op, p, q]) => {
      const s = (v: string): string => JSON.stringify(v);
      if (op === 'IN') return `${f} IN [${s(p)}, ${s(q)}]`;
      if (op === '=|?=') return `${f} = ${s(p)} OR g ?= ${s(q)}`;
      return `${f} ${op} ${s(p)}`;
    });
  const textValue = fc.oneof(text(9), fc.array(fc.oneof(text(9), fc.integer()), { maxLength: 3 }), fc.integer());
  const textEvent = fc.record({ f: textValue, g: textValue }, { requiredKeys: [] });

  test('the candidates keep every match', () => {
    fc.assert(
      fc.property(
        fc.array(textRule, { minLength: 1, maxLength: 15 }),
        fc.array(textEvent, { minLength: 1, maxLength: 8 }),
        (rules, events) => {
          const { index, compiled } = indexOf(...rules);
          for (const e of events) {
            const all = compiled.flatMap((c, i) => (c.run(e) === null ? [] : [i]));
            assert.deepEqual(
              index.candidates(e).filter((i) => compiled[i]?.run(e) !== null),
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

describe('RuleIndex, case-insensitive literals (i"...")', () => {
  test('keys are met by the lower-cased string, whatever its case', () => {
    const { index } = indexOf(
      'Image = i"*\\\\CMD.exe"',
      'User IN [i"Bob", "eve"]',
      'Cmd ?= i"WhoAmI"',
      'Image = "*\\\\cmd.exe"',
    );
    assert.equal(index.indexedCount, 4);
    assert.deepEqual(candidates(index, { Image: 'C:\\Windows\\Cmd.EXE' }), [0]);
    assert.deepEqual(candidates(index, { Image: 'C:\\Windows\\cmd.exe' }), [0, 3]);
    assert.deepEqual(candidates(index, { User: 'BOB', Cmd: 'x WHOAMI /all' }), [1, 2]);
    assert.deepEqual(candidates(index, { User: 'EVE' }), []);
  });

  const text = (maxLength: number): Arbitrary<string> =>
    fc.string({ unit: fc.constantFrom('a', 'A', 'b', 'B', 'c'), maxLength });
  const patternText = fc.string({ unit: fc.constantFrom('a', 'B', 'b', 'A', '*'), minLength: 1, maxLength: 7 });
  const ciRule = fc
    .tuple(
      fc.constantFrom('f', 'g'),
      fc.constantFrom('=', '?=', 'IN', '!='),
      patternText,
      patternText,
      fc.boolean(),
      fc.boolean(),
    )
    .map(([f, op, p, q, ci1, ci2]) => {
      const s = (v: string, ci: boolean): string => (ci ? 'i' : '') + JSON.stringify(v);
      if (op === 'IN') return `${f} IN [${s(p, ci1)}, ${s(q, ci2)}]`;
      if (op === '!=') return `${f} = ${s(p, ci1)} AND g != ${s(q, ci2)}`;
      return `${f} ${op} ${s(p, ci1)} OR g ?= ${s(q, ci2)}`;
    });
  const ciValue = fc.oneof(text(9), fc.array(text(9), { maxLength: 3 }), fc.integer());
  const ciEvent = fc.record({ f: ciValue, g: ciValue }, { requiredKeys: [] });

  test('the candidates keep every match, and a match is the match of the lower-cased texts', () => {
    fc.assert(
      fc.property(
        fc.array(ciRule, { minLength: 1, maxLength: 12 }),
        fc.array(ciEvent, { minLength: 1, maxLength: 8 }),
        (rules, events) => {
          const { index, compiled } = indexOf(...rules);
          const lowered = rules.map((r) =>
            compile(r.replace(/i"([^"]*)"/g, (_m, t: string) => JSON.stringify(t.toLowerCase()))),
          );
          const lower = (v: unknown): unknown =>
            typeof v === 'string' ? v.toLowerCase() : Array.isArray(v) ? v.map(lower) : v;
          for (const e of events) {
            const all = compiled.flatMap((c, i) => (c.run(e) === null ? [] : [i]));
            assert.deepEqual(
              index.candidates(e).filter((i) => compiled[i]?.run(e) !== null),
              all,
              JSON.stringify(e),
            );
            // with every literal caseless, matching equals matching the lower-cased event
            const le = Object.fromEntries(Object.entries(e).map(([k, v]) => [k, lower(v)]));
            rules.forEach((r, i) => {
              if ((r.match(/"[^"]*"/g) ?? []).length === (r.match(/i"[^"]*"/g) ?? []).length)
                assert.equal(compiled[i]?.run(e) !== null, lowered[i]?.run(le) !== null, `${r} ${JSON.stringify(e)}`);
            });
          }
        },
      ),
      { numRuns: 800 },
    );
  });
});
