import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextAutomaton, TextSearch } from '../src/textAutomaton.ts';
import type { TextKey } from '../src/textAutomaton.ts';

/** The positions of the keys the text meets, by plain string tests (what the automata must find). */
function naive(keys: readonly TextKey[], text: string, caseless: boolean): number[] {
  const t = caseless ? text.toLowerCase() : text;
  const found = new Set<number>();
  for (const key of keys) {
    const met =
      key.kind === 'prefix'
        ? t.startsWith(key.text)
        : key.kind === 'suffix'
          ? t.endsWith(key.text)
          : t.includes(key.text);
    if (met) for (const p of key.positions) found.add(p);
  }
  return [...found].sort((a, b) => a - b);
}

function scanned(search: TextSearch | TextAutomaton, text: string, size: number): number[] {
  const into = new Int32Array(size);
  const n = search.scan(text, into, 0, new Uint32Array(size), 1);
  return [...into.subarray(0, n)].sort((a, b) => a - b);
}

const key = (kind: TextKey['kind'], text: string, ...positions: number[]): TextKey => ({ kind, text, positions });

describe('TextAutomaton', () => {
  test('prefixes, suffixes and substrings in one pass, overlapping keys and keys inside keys included', () => {
    const keys = [
      key('prefix', 'c:\\', 0),
      key('suffix', '.exe', 1),
      key('suffix', '\\cmd.exe', 2),
      key('contains', ' -enc', 3),
      key('contains', ' -encodedcommand', 4),
      key('contains', 'he', 5),
      key('contains', 'she', 6),
      key('contains', 'hers', 7),
    ];
    const automaton = TextAutomaton.build(keys, false) as TextAutomaton;
    assert.deepEqual(scanned(automaton, 'c:\\windows\\cmd.exe', 8), [0, 1, 2]);
    assert.deepEqual(scanned(automaton, 'x c:\\cmd.exe.bak', 8), []);
    assert.deepEqual(scanned(automaton, 'powershell -encodedcommand ushers', 8), [3, 4, 5, 6, 7]);
    assert.deepEqual(scanned(automaton, '', 8), []);
  });

  test('caseless: keys are lower case, the text is read lower-cased, non-ASCII included (toLowerCase of the whole text)', () => {
    const keys = [
      key('contains', 'mimikatz', 0),
      key('suffix', '\\ı.exe', 1),
      key('contains', 'i̇', 2),
      key('prefix', 'k', 3),
    ];
    const search = new TextSearch(keys, true);
    assert.deepEqual(scanned(search, 'Invoke-MIMIKATZ', 4), [0]);
    assert.deepEqual(scanned(search, 'C:\\ı.EXE', 4), [1]);
    // İ lower-cases to two characters (i and a combining dot); the Kelvin sign K to k
    assert.deepEqual(scanned(search, 'İ', 4), [2]);
    assert.deepEqual(scanned(search, '\u212Aey', 4), [3]);
    assert.deepEqual(scanned(search, 'mimikatzé', 4), [0]);
    assert.deepEqual(scanned(new TextSearch(keys, false), 'MIMIKATZ', 4), []);
  });

  test('one position per key and text, however often the key occurs', () => {
    const automaton = TextAutomaton.build(
      [key('contains', 'a', 0), key('contains', 'aa', 0, 1)],
      false,
    ) as TextAutomaton;
    assert.deepEqual(scanned(automaton, 'aaaa', 2), [0, 1]);
  });

  test('a key list too large for one automaton is split, with the same results', () => {
    const keys = Array.from({ length: 40 }, (_, i) => key('contains', `k${i}x${i}`, i));
    const split = new TextSearch(keys, false, 200);
    assert.ok(split.narrow.length > 1);
    assert.deepEqual(scanned(split, 'k3x3 k17x17 k39x39', 40), [3, 17, 39]);
    // a key gets an automaton of its own whatever the budget; beyond 65,535 states it is tested as it is
    assert.deepEqual(
      scanned(new TextSearch([key('contains', 'x'.repeat(100), 0)], false, 10), 'x'.repeat(100), 1),
      [0],
    );
    const long = new TextSearch([key('suffix', 'x'.repeat(70_000), 0), key('contains', 'ab', 1)], true);
    assert.equal(long.plain.length, 1);
    assert.deepEqual(scanned(long, `AB${'X'.repeat(70_000)}`, 2), [0, 1]);
    assert.deepEqual(scanned(long, `${'X'.repeat(70_000)}y`, 2), []);
  });

  test('property: the automata find exactly the keys plain string tests find', () => {
    const alphabet = fc.constantFrom('a', 'b', 'A', 'B', '\\', '.', ' ', 'é', 'É', 'İ', 'ı', 'ß', 'Σ', '😀', 'K', 'k');
    const text = fc.array(alphabet, { maxLength: 12 }).map((cs) => cs.join(''));
    const keyText = fc.array(alphabet, { minLength: 1, maxLength: 4 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.tuple(fc.constantFrom('prefix', 'suffix', 'contains'), keyText), { minLength: 1, maxLength: 12 }),
        fc.array(text, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 20, max: 400 }),
        (caseless, specs, texts, maxCells) => {
          const keys = specs.map(([kind, t], i) =>
            key(kind as TextKey['kind'], caseless ? t.toLowerCase() : t, i, (i * 7) % specs.length),
          );
          const search = new TextSearch(keys, caseless, maxCells);
          for (const t of texts) assert.deepEqual(scanned(search, t, specs.length), naive(keys, t, caseless), t);
        },
      ),
      { numRuns: 400 },
    );
  });

  test('project: the same automata standing for other positions; keys mapped to nothing are not met; none left: undefined', () => {
    const keys = [
      key('prefix', 'c:\\', 0),
      key('suffix', '.exe', 1),
      key('contains', 'enc', 2),
      key('contains', 'é', 3),
    ];
    const search = new TextSearch(keys, true);
    const mapped = new Map<number, number[]>([
      [0, [10]],
      [2, [11, 12]],
      [3, []],
    ]);
    const projected = search.project((list) => mapped.get(list[0] as number)) as TextSearch;
    // the suffix automaton lost its one key, the wide one too; the others are the same tables
    assert.deepEqual([projected.prefixes.length, projected.suffixes.length, projected.wide.length], [1, 0, 0]);
    assert.equal(projected.narrow[0]?.states, search.narrow[0]?.states);
    assert.deepEqual(scanned(projected, 'C:\\x -ENC é.exe', 13), [10, 11, 12]);
    assert.deepEqual(scanned(search, 'C:\\x -ENC é.exe', 13), [0, 1, 2, 3]);
    assert.equal(
      search.project(() => undefined),
      undefined,
    );
  });

  test('property: a projection finds exactly the mapped positions of the keys the text meets', () => {
    const alphabet = fc.constantFrom('a', 'b', 'A', '\\', '.', 'é', 'İ');
    const text = fc.array(alphabet, { maxLength: 10 }).map((cs) => cs.join(''));
    const keyText = fc.array(alphabet, { minLength: 1, maxLength: 3 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.tuple(fc.constantFrom('prefix', 'suffix', 'contains'), keyText), { minLength: 1, maxLength: 10 }),
        fc.array(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 2 }), { minLength: 10, maxLength: 10 }),
        fc.array(text, { minLength: 1, maxLength: 6 }),
        (caseless, specs, positionsOf, texts) => {
          const keys = specs.map(([kind, t], i) => key(kind as TextKey['kind'], caseless ? t.toLowerCase() : t, i));
          const projected = new TextSearch(keys, caseless, 60).project((list) => positionsOf[list[0] as number]);
          const expected = keys.map((k, i) => key(k.kind, k.text, ...(positionsOf[i] as number[])));
          for (const t of texts) {
            const want = naive(expected, t, caseless);
            assert.deepEqual(projected === undefined ? [] : scanned(projected, t, 6), want, t);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
