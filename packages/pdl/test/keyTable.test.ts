import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildTable, projectTable } from '../src/keyTable.ts';
import type { Key } from '../src/requiredConditions.ts';
import { assertKeepsMatches, candidates, indexOf, keyOf } from './ruleIndexHelpers.ts';

const keys = (...queries: string[]): Key[] => queries.map(keyOf);

describe('buildTable', () => {
  test('keys by field (a caseless key on a field of its own), each with its positions once, the paths as a tree', () => {
    const [one, x, caselessX, yes] = keys('a = 1', 'a = "x"', 'a = i"X"', 'n.x = true');
    const table = buildTable([
      [one as Key, 0],
      [x as Key, 1],
      [x as Key, 1],
      [x as Key, 4],
      [caselessX as Key, 2],
      [yes as Key, 3],
    ]);
    assert.deepEqual(
      table.fields.map((f) => [f.path.join('.'), f.caseless]),
      [
        ['a', false],
        ['a', true],
        ['n.x', false],
      ],
    );
    const [a, lowerA, nx] = table.fields;
    assert.deepEqual([...(a?.numbers ?? [])], [[1, [0]]]);
    assert.deepEqual([...(a?.strings ?? [])], [['x', [1, 4]]]);
    assert.deepEqual([...(lowerA?.strings ?? [])], [['x', [2]]]);
    assert.deepEqual(nx?.trueRules, [3]);
    assert.equal(nx?.falseRules, undefined);
    assert.deepEqual(table.root.keys, ['a', 'n']);
    assert.deepEqual(table.root.children.get('n')?.keys, ['x']);
    assert.deepEqual(table.root.children.get('n')?.children.get('x')?.fields, [nx]);
  });

  test("a field's substring keys share one automaton (keys with wider characters another), its prefixes one, its suffixes one", () => {
    const table = buildTable(
      keys('f = "C:\\\\*"', 'f = "*.exe"', 'f = "*\\\\cmd.exe"', 'f ?= "abc"', 'f ?= "abc"', 'f ?= "é"').map(
        (k, n) => [k, n] as const,
      ),
    );
    const field = table.fields[0];
    assert.equal(field?.hasText, true);
    assert.equal(field?.text?.narrow.length, 1);
    assert.equal(field?.text?.wide.length, 1);
    assert.equal(field?.text?.prefixes.length, 1);
    assert.equal(field?.text?.suffixes.length, 1);
    assert.equal(field?.textKeys.size, 0); // only kept while the table is built
    const found = new Int32Array(6);
    const n = field?.text?.scan('C:\\abc\\cmd.exe', found, 0, new Uint32Array(6), 1) ?? 0;
    assert.deepEqual([...found.subarray(0, n)].sort(), [0, 1, 2, 3, 4]);
  });

  test('projectTable: the keys standing for other positions, fields left without keys left out, automata shared', () => {
    const full = buildTable(
      keys('a = 1', 'a = "x"', 'n.x = true', 'f ?= "abc"', 'f = "*.exe"', 'g = "y"').map((k, n) => [k, n] as const),
    );
    const positions: Record<number, number[]> = { 0: [7], 1: [], 3: [8, 9], 5: [6] };
    const table = projectTable(full, (list) => positions[list[0] as number]);
    assert.deepEqual(
      table.fields.map((f) => f.path.join('.')),
      ['a', 'f', 'g'],
    );
    const [a, f, g] = table.fields;
    assert.deepEqual([...(a?.numbers ?? [])], [[1, [7]]]);
    assert.deepEqual([...(a?.strings ?? [])], []);
    assert.deepEqual([...(g?.strings ?? [])], [['y', [6]]]);
    assert.equal(f?.text?.narrow[0]?.states, full.fields.find((x) => x.path[0] === 'f')?.text?.narrow[0]?.states);
    assert.equal(f?.text?.suffixes.length, 0);
    const found = new Int32Array(10);
    const n = f?.text?.scan('xabc.exe', found, 0, new Uint32Array(10), 1) ?? 0;
    assert.deepEqual([...found.subarray(0, n)].sort(), [8, 9]);
    assert.deepEqual(table.root.keys, ['a', 'f', 'g']);
  });

  test('a field of exact keys only has no automaton', () => {
    const table = buildTable(keys('f = "x"', 'f = 1').map((k, n) => [k, n] as const));
    assert.equal(table.fields[0]?.hasText, false);
    assert.equal(table.fields[0]?.text, undefined);
  });
});

describe('RuleIndex, exact keys', () => {
  test('numbers and canonical numerals share a key the way = does', () => {
    const { index } = indexOf('port = 443', 'port = "443"', 'port = -0', 'port = 1.5', 'port = "0443"');
    assert.deepEqual(candidates(index, { port: 443 }), [0]); // "443" the literal string only matches the string
    assert.deepEqual(candidates(index, { port: '443' }), [0, 1]);
    assert.deepEqual(candidates(index, { port: 0 }), [2]);
    assert.deepEqual(candidates(index, { port: '0' }), [2]);
    assert.deepEqual(candidates(index, { port: '-0' }), []); // not a canonical numeral
    assert.deepEqual(candidates(index, { port: '1.5' }), [3]);
    assert.deepEqual(candidates(index, { port: '0443' }), [4]);
    assert.deepEqual(candidates(index, { port: 'x' }), []);
  });
});

describe('RuleIndex, many substring keys on one field (one scan of the text)', () => {
  const unit = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'A');
  const needle = fc.string({ unit, minLength: 1, maxLength: 5 });
  const rule = fc.tuple(needle, fc.boolean()).map(([n, ci]) => `f ?= ${ci ? 'i' : ''}${JSON.stringify(n)}`);
  const value = fc.oneof(
    fc.string({ unit, maxLength: 30 }),
    fc.array(fc.string({ unit, maxLength: 12 }), { maxLength: 3 }),
  );
  test('the candidates keep every match', () => {
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 13, maxLength: 60 }),
        fc.array(fc.record({ f: value }), { minLength: 1, maxLength: 8 }),
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
      { numRuns: 500 },
    );
  });
});

describe('RuleIndex, large key sets (Sigma scale: hash lists, hundreds of substrings, short and non-ASCII keys)', () => {
  test('property: many substring, prefix and suffix keys sharing heads, with guards, keep every match', () => {
    // keys from a small pool of texts over a small alphabet share their first characters (groups
    // get sub-indexed); events are made of pieces of the same texts, so keys are often met
    const unit = fc.constantFrom('a', 'b', 'a', 'b', 'A', '=', '😀', 'А');
    const pool = fc.array(fc.string({ unit, minLength: 1, maxLength: 14 }), { minLength: 4, maxLength: 12 });
    const scenario = pool.chain((texts) => {
      const needle = fc.oneof(
        fc.constantFrom(...texts),
        fc.constantFrom(...texts).map((t) => t.slice(0, 5)),
        fc.string({ unit, minLength: 1, maxLength: 6 }),
      );
      const rule = fc
        .tuple(
          fc.constantFrom('?=', '= prefix', '= suffix', '= middle', 'IN'),
          needle,
          needle,
          fc.boolean(),
          fc.constantFrom('', 'ch = "x" AND ', 'ch = "x" AND id = 1 AND ', 'n.f = 1 AND '),
        )
        .map(([op, n, m, ci, guard]) => {
          const lit = (t: string): string => `${ci ? 'i' : ''}${JSON.stringify(t)}`;
          const f = guard.startsWith('n.') ? 'n.g' : 'f';
          switch (op) {
            case '?=':
              return `${guard}${f} ?= ${lit(n)}`;
            case '= prefix':
              return `${guard}${f} = ${lit(`${n}*`)}`;
            case '= suffix':
              return `${guard}${f} = ${lit(`*${n}`)}`;
            case '= middle':
              return `${guard}${f} = ${lit(`*${n}*${m}`)}`;
            default:
              return `${guard}${f} IN [${lit(`*${n}*`)}, ${lit(m)}]`;
          }
        });
      const flip = (t: string, seed: number): string =>
        [...t].map((c, i) => ((seed >> (i % 16)) & 1 ? c.toUpperCase() : c)).join('');
      const text = fc
        .tuple(fc.array(fc.oneof(needle, fc.string({ unit, maxLength: 3 })), { maxLength: 4 }), fc.nat())
        .map(([parts, seed]) => (seed % 2 === 0 ? parts.join('') : flip(parts.join(''), seed)));
      const value = fc.oneof(
        { weight: 4, arbitrary: text },
        { weight: 1, arbitrary: fc.array(text, { maxLength: 3 }) },
      );
      const event = fc.record(
        {
          f: value,
          ch: fc.constantFrom('x', 'y', ['x']),
          id: fc.constantFrom(1, '1', 2),
          n: fc.record({ f: fc.constantFrom(1, 2), g: value }, { requiredKeys: [] }),
        },
        { requiredKeys: [] },
      );
      return fc.tuple(
        fc.array(rule, { minLength: 20, maxLength: 120 }),
        fc.array(event, { minLength: 1, maxLength: 8 }),
      );
    });
    fc.assert(
      fc.property(scenario, ([rules, events]) => {
        assertKeepsMatches(rules, events);
      }),
      { numRuns: 300 },
    );
  });

  test('keys sharing their first characters (a group, sub-indexed by more of them) are each found', () => {
    const needles = ['abab=a', 'ababbb', 'abaAAA', 'aba=ab', 'abaxyz', 'abaxyzw', 'aba', 'abab'];
    const { index } = indexOf(
      ...needles.map((n) => `f ?= ${JSON.stringify(n)}`),
      ...needles.map((n) => `g ?= i${JSON.stringify(n)}`),
    );
    assert.deepEqual(candidates(index, { f: 'xxababbbyy' }), [1, 6, 7]);
    assert.deepEqual(candidates(index, { f: 'abaxyzw', g: 'ABAXYZ' }), [4, 5, 6, 12, 14]);
    assert.deepEqual(candidates(index, { f: ['abaAAA', 'aba=a'], g: ['aBaB=A'] }), [2, 6, 8, 14, 15]);
  });
});
