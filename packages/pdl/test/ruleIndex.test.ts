import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { compile, RuleIndex } from '../src/index.ts';
import type { CompiledPdl, Pipeline } from '../src/index.ts';
import { event as anyEvent, query as anyQuery } from './arbitraries.ts';

type Obj = Record<string, unknown>;

function indexOf(...rules: string[]): { index: RuleIndex; compiled: CompiledPdl[] } {
  const compiled = rules.map((r) => compile(r));
  return { index: new RuleIndex(compiled), compiled };
}

const candidates = (index: RuleIndex, event: unknown): number[] => [...index.candidates(event)];

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

  test('array fields: any element; nested paths; booleans', () => {
    const { index } = indexOf('tags = "a"', 'tags IN ["b", "c"]', 'n.x = true', 'n.x = false');
    assert.deepEqual(candidates(index, { tags: ['c', 'a', 'b'] }), [0, 1]);
    assert.deepEqual(candidates(index, { tags: [['a']] }), []);
    assert.deepEqual(candidates(index, { n: { x: true }, tags: 'b' }), [1, 2]);
    assert.deepEqual(candidates(index, { n: [{ x: false }] }), []); // paths do not go through arrays
    assert.deepEqual(candidates(index, { n: { x: [false, 1] } }), [3]);
  });

  test('correlation rules, empty slots and rules without an AST are always candidates', () => {
    const compiled = [
      compile('a = 1 | event_count timespan=1m'),
      null,
      compile('a = 2'),
      { hasCorrelation: false },
      undefined,
    ];
    const index = new RuleIndex(compiled);
    assert.equal(index.indexedCount, 1);
    assert.deepEqual(candidates(index, { a: 3 }), [0, 1, 3, 4]);
    assert.deepEqual(candidates(index, { a: 2 }), [0, 1, 2, 3, 4]);
  });

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

// ---- property: indexing never loses a match ---------------------------------------------------

const str = (value: string): Obj => ({ kind: 'String', value, literalStars: [] });
/** Patterns with wildcards (`*`; `\\*` written as a literal star at the listed offset): prefixes, suffixes, middles. */
const pattern: Arbitrary<Obj> = fc.oneof(
  fc
    .constantFrom('x*', '*a', 'a*', '*ab*', 'a*b', '*b*a', '**', '*', 'ab*a', '*ba', '*abab*', '*abaa*', 'aba*', '*aab')
    .map((value) => ({ kind: 'String', value, literalStars: [] })),
  fc
    .constantFrom<[string, number[]]>(['a*', [1]], ['*a*', [2]], ['a**', [1]], ['**b', [0]])
    .map(([value, literalStars]) => ({ kind: 'String', value, literalStars })),
);
const literal: Arbitrary<Obj> = fc.oneof(
  fc.constantFrom('a', 'b', 'A', 'ab', 'abab', 'abaa', '443', '0443', '0', '-0', '1.5', '1e+21', '').map(str),
  pattern,
  fc.constantFrom(443, 0, -0, 1.5, 1e21, -1).map((value) => ({ kind: 'Number', value })),
  fc.boolean().map((value) => ({ kind: 'Boolean', value })),
  fc.constant({ kind: 'Null' }),
);
const field: Arbitrary<Obj> = fc
  .constantFrom(['a'], ['b'], ['tags'], ['n', 'x'])
  .map((path) => ({ kind: 'Field', path }));
const condition: Arbitrary<Obj> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('Comparison'), field, operator: fc.constant('='), value: literal }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('In'),
      field,
      values: fc.array(literal, { minLength: 1, maxLength: 3 }).map((elements) => ({ kind: 'Array', elements })),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('Comparison'), field, operator: fc.constant('?='), value: literal }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('Comparison'),
      field,
      operator: fc.constantFrom('!=', '>'),
      value: literal,
    }),
  },
  { weight: 1, arbitrary: anyQuery },
);
const { ruleQuery } = fc.letrec<{ ruleQuery: Obj }>((tie) => ({
  ruleQuery: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    condition,
    fc.record({ kind: fc.constant('And'), operands: fc.array(tie('ruleQuery'), { minLength: 2, maxLength: 3 }) }),
    fc.record({ kind: fc.constant('Or'), operands: fc.array(tie('ruleQuery'), { minLength: 2, maxLength: 2 }) }),
    fc.record({ kind: fc.constant('Not'), operand: tie('ruleQuery') }),
  ),
}));
const rule: Arbitrary<Obj> = fc.oneof(
  { weight: 6, arbitrary: ruleQuery.map((query) => ({ kind: 'Pipeline', stages: [{ kind: 'QueryStage', query }] })) },
  {
    weight: 1,
    arbitrary: ruleQuery.map((query) => ({
      kind: 'Pipeline',
      stages: [
        { kind: 'QueryStage', query },
        {
          kind: 'EvalStage',
          assignments: [
            { kind: 'Assignment', target: { kind: 'Field', path: ['z'] }, value: { kind: 'Number', value: 1 } },
          ],
        },
      ],
    })),
  },
);
const scalar = fc.constantFrom<unknown>(
  'a',
  'b',
  'A',
  'ab',
  'ba',
  'aba',
  'xab',
  'abx',
  'bxa',
  'ababaa',
  'xabaab',
  'abaab',
  'a*',
  'a*b',
  '*a*',
  'x*y',
  'xa',
  '443',
  '0443',
  '0',
  '-0',
  '1.5',
  '1e+21',
  '',
  'xyz',
  443,
  0,
  -0,
  1.5,
  1e21,
  -1,
  true,
  false,
  null,
);
const value = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(fc.oneof(scalar, fc.array(scalar, { maxLength: 2 })), { maxLength: 3 }) },
);
const event: Arbitrary<Obj> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record(
      { a: value, b: value, tags: value, n: fc.oneof(fc.record({ x: value }, { requiredKeys: [] }), value) },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: anyEvent },
);

describe('RuleIndex property', () => {
  test('the rules matching an event are the same whether all rules run or only the candidates', () => {
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 1, maxLength: 12 }),
        fc.array(event, { minLength: 1, maxLength: 8 }),
        (asts, events) => {
          const compiled = asts.map((ast) => compile(ast as unknown as Pipeline));
          const index = new RuleIndex(compiled);
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

/** The rules matching each event are the same with the index as with every rule run (the index drops no match). */
function assertKeepsMatches(rules: string[], events: readonly unknown[]): void {
  const { index, compiled } = indexOf(...rules);
  for (const e of events) {
    const all = compiled.flatMap((c, i) => (c.run(e) === null ? [] : [i]));
    assert.deepEqual(
      index.candidates(e).filter((i) => compiled[i]?.run(e) !== null),
      all,
      `${JSON.stringify(e)} with ${JSON.stringify(rules)}`,
    );
  }
}

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
        fc.array(rule, { minLength: 1, maxLength: 12 }),
        fc.array(event, { minLength: 1, maxLength: 12 }),
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
