// Shared helpers of the RuleIndex tests (no tests here): building an index, and the arbitraries
// of the properties that check the index never loses a match.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { compile, parse, RuleIndex } from '../src/index.ts';
import type { CompiledPdl } from '../src/index.ts';
import { pipelineNeed } from '../src/requiredConditions.ts';
import type { Key, Need } from '../src/requiredConditions.ts';
import { event as anyEvent, query as anyQuery } from './arbitraries.ts';

type Obj = Record<string, unknown>;

/** The rules compiled, and an index of them. */
export function indexOf(...rules: string[]): { index: RuleIndex; compiled: CompiledPdl[] } {
  const compiled = rules.map((r) => compile(r));
  return { index: new RuleIndex(compiled), compiled };
}

/** What a rule of one query needs (requiredConditions.ts). */
export const needOf = (query: string): Need | undefined => pipelineNeed(parse(query));

/** The key of a query that needs one key. */
export function keyOf(query: string): Key {
  const need = needOf(query);
  assert.equal(need?.kind, 'key', query);
  return (need as Extract<Need, { kind: 'key' }>).key;
}

export const candidates = (index: RuleIndex, event: unknown): number[] => [...index.candidates(event)];

/** The rules matching each event are the same with the index as with every rule run (the index drops no match). */
export function assertKeepsMatches(rules: string[], events: readonly unknown[]): void {
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

// ---- rules and events of the properties: indexing never loses a match -------------------------

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
/** Case-insensitive literals (`i"..."`, Sigma's): ASCII and the characters whose lower case is special. */
const caseless: Arbitrary<Obj> = fc.oneof(
  fc.constantFrom('a', 'A', 'ab', 'aB*', '*Ab', '*b*', 'É', 'i̇', 'İ*', '*😀', 'k', 'ı', '').map((value) => ({
    ...str(value),
    caseInsensitive: true,
  })),
  pattern.map((p) => ({ ...p, caseInsensitive: true })),
);
const literal: Arbitrary<Obj> = fc.oneof(
  fc.constantFrom('a', 'b', 'A', 'ab', 'abab', 'abaa', '443', '0443', '0', '-0', '1.5', '1e+21', '').map(str),
  pattern,
  caseless,
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
/** A rule (an AST) of conditions the index can key and conditions it cannot. */
export const indexRule: Arbitrary<Obj> = fc.oneof(
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
  'AB',
  'xABab',
  'É',
  'é',
  'İ',
  'İab',
  'x😀',
  '\u212A',
  'ıAB',
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
/** An event with the fields of indexRule (or any event). */
export const indexEvent: Arbitrary<Obj> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record(
      { a: value, b: value, tags: value, n: fc.oneof(fc.record({ x: value }, { requiredKeys: [] }), value) },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: anyEvent },
);
