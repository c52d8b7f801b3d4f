// fast-check generators of PDL ASTs (without spans) for the property tests. No tests here.
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

type Obj = Record<string, unknown>;

const segment = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'a',
      'user',
      'port',
      'tags',
      '_time',
      'src-ip',
      'x:y',
      'eval',
      'AND',
      'true',
      'where',
      'e1',
    ),
  },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 6 }).filter((s) => !s.includes('\n')) },
);
export const field: Arbitrary<Obj> = fc
  .array(segment, { minLength: 1, maxLength: 3 })
  .map((path) => ({ kind: 'Field', path }));

const text = fc.oneof(fc.constantFrom('', 'bob', 'C:\\Windows\\*', 'a"b', '\\d+', 'x*y*'), fc.string({ maxLength: 8 }));

export const stringLiteral: Arbitrary<Obj> = text.chain((value) => {
  const stars = [...value].flatMap((ch, i) => (ch === '*' ? [i] : []));
  return fc.subarray(stars).map((literalStars) => ({ kind: 'String', value, literalStars }));
});
const number = fc.oneof(
  fc.integer({ min: -100_000, max: 100_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1e21, 5e-324),
);
export const numberLiteral: Arbitrary<Obj> = number.map((value) => ({ kind: 'Number', value }));
const booleanLiteral = fc.boolean().map((value) => ({ kind: 'Boolean', value }));
const nullLiteral = fc.constant({ kind: 'Null' });
export const scalar: Arbitrary<Obj> = fc.oneof(stringLiteral, numberLiteral, booleanLiteral, nullLiteral);
export const arrayLiteral: Arbitrary<Obj> = fc
  .array(scalar, { maxLength: 3 })
  .map((elements) => ({ kind: 'Array', elements }));

const regex = fc.constantFrom('(?i)x', '\\d+', '^a.*b$', '(?<n>\\w+)', 'a|b', '[*]');
const regexLiteral = regex.map((value) => ({ kind: 'String', value, literalStars: [] }));
const rexPattern = fc.constantFrom('(?<n>\\w+)', 'id=(?<id>\\d+)', '(?i)(?<a>x)(?<b>y)?');

const comparison: Arbitrary<Obj> = fc.oneof(
  fc.record({
    kind: fc.constant('Comparison'),
    field,
    operator: fc.constantFrom('=', '!='),
    value: fc.oneof(scalar, arrayLiteral, field),
  }),
  fc.record({
    kind: fc.constant('Comparison'),
    field,
    operator: fc.constant('?='),
    value: fc.oneof(stringLiteral, numberLiteral, booleanLiteral, field),
  }),
  fc.record({ kind: fc.constant('Comparison'), field, operator: fc.constant('~='), value: regexLiteral }),
  fc.record({
    kind: fc.constant('Comparison'),
    field,
    operator: fc.constantFrom('<', '>', '<=', '>='),
    value: fc.oneof(stringLiteral, numberLiteral, field),
  }),
  fc.record({ kind: fc.constant('In'), field, values: arrayLiteral }),
);

export const { query } = fc.letrec<{ query: Obj }>((tie) => ({
  query: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    comparison,
    fc.record({ kind: fc.constant('Or'), operands: fc.array(tie('query'), { minLength: 2, maxLength: 3 }) }),
    fc.record({ kind: fc.constant('And'), operands: fc.array(tie('query'), { minLength: 2, maxLength: 3 }) }),
    fc.record({ kind: fc.constant('Not'), operand: tie('query') }),
  ),
}));

const call: (expr: Arbitrary<Obj>) => Arbitrary<Obj> = (expr) =>
  fc.oneof(
    fc.record({
      kind: fc.constant('Call'),
      name: fc.constantFrom('lower', 'upper', 'len', 'trim', 'tonumber', 'tostring'),
      args: fc.tuple(expr),
    }),
    fc.record({
      kind: fc.constant('Call'),
      name: fc.constant('substr'),
      args: fc.oneof(fc.tuple(expr, expr), fc.tuple(expr, expr, expr)),
    }),
    fc.record({ kind: fc.constant('Call'), name: fc.constant('replace'), args: fc.tuple(expr, regexLiteral, expr) }),
    fc.record({ kind: fc.constant('Call'), name: fc.constant('split'), args: fc.tuple(expr, expr) }),
    fc.record({
      kind: fc.constant('Call'),
      name: fc.constant('coalesce'),
      args: fc.array(expr, { minLength: 1, maxLength: 3 }),
    }),
    fc.record({
      kind: fc.constant('Call'),
      name: fc.constant('round'),
      args: fc.oneof(fc.tuple(expr), fc.tuple(expr, expr)),
    }),
    fc.constant({ kind: 'Call', name: 'now', args: [] }),
  );

export const { expression } = fc.letrec<{ expression: Obj }>((tie) => ({
  expression: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    field,
    arrayLiteral,
    fc.record({
      kind: fc.constant('Binary'),
      operator: fc.constantFrom('+', '-', '*', '/'),
      left: tie('expression'),
      right: tie('expression'),
    }),
    fc.record({ kind: fc.constant('If'), condition: query, then: tie('expression'), else: tie('expression') }),
    call(tie('expression')),
  ),
}));

const nonEmptyText = fc.oneof(
  fc.constantFrom(',', ';', '=', ':', 'a, b, c'),
  fc.string({ minLength: 1, maxLength: 5 }),
);
const name = fc
  .oneof(fc.constantFrom('geo', 'failed', 'AND', 'a b', ''), fc.string({ maxLength: 5 }))
  .map((value) => ({ kind: 'Name', value }));
const duration = fc.record({
  kind: fc.constant('Duration'),
  value: fc.integer({ min: 1, max: 1000 }),
  unit: fc.constantFrom('s', 'm', 'h', 'd', 'w'),
});
const options = fc.record({
  timespan: duration,
  groupBy: fc.array(field, { maxLength: 2 }),
  emit: fc.constantFrom('event', 'close'),
  reset: fc.boolean(),
  suppress: fc.option(duration, { nil: null }),
  where: fc.option(query, { nil: null }),
});

export const stage: Arbitrary<Obj> = fc.oneof(
  fc.record({ kind: fc.constant('QueryStage'), query }),
  fc.record({
    kind: fc.constant('EvalStage'),
    assignments: fc.array(fc.record({ kind: fc.constant('Assignment'), target: field, value: expression }), {
      minLength: 1,
      maxLength: 3,
    }),
  }),
  fc.record({
    kind: fc.constant('FieldsStage'),
    mode: fc.constantFrom('keep', 'remove'),
    fields: fc.array(field, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({
    kind: fc.constant('RenameStage'),
    renames: fc.array(fc.record({ kind: fc.constant('RenamePair'), from: field, to: field }), {
      minLength: 1,
      maxLength: 2,
    }),
  }),
  fc.constant({ kind: 'FlattenStage' }),
  fc.record({
    kind: fc.constant('LookupStage'),
    lookupId: name,
    lookupField: field,
    eventField: fc.option(field, { nil: null }),
    outputs: fc.array(
      fc.record({ kind: fc.constant('LookupOutput'), column: field, as: fc.option(field, { nil: null }) }),
      { minLength: 1, maxLength: 2 },
    ),
  }),
  fc.record({ kind: fc.constant('RexStage'), field, pattern: rexPattern }),
  fc.record({ kind: fc.constant('ParseKvStage'), field, delimiter: nonEmptyText }),
  fc.record({ kind: fc.constant('ParseCsvStage'), field, header: nonEmptyText, delimiter: nonEmptyText }),
  fc.record({
    kind: fc.constant('AggregationStage'),
    function: fc.constant('event_count'),
    fields: fc.constant([]),
    options,
  }),
  fc.record({
    kind: fc.constant('AggregationStage'),
    function: fc.constant('value_count'),
    fields: fc.array(field, { minLength: 1, maxLength: 2 }),
    options,
  }),
  fc.record({
    kind: fc.constant('AggregationStage'),
    function: fc.constantFrom('value_sum', 'value_avg'),
    fields: fc.tuple(field),
    options,
  }),
  fc.record({
    kind: fc.constant('TemporalStage'),
    ordered: fc.boolean(),
    queries: fc
      .array(query, { minLength: 1, maxLength: 3 })
      .map((qs) => qs.map((q, i) => ({ kind: 'TemporalQuery', query: q, label: { kind: 'Name', value: `q${i}` } }))),
    options,
  }),
);

export const pipeline: Arbitrary<Obj> = fc
  .array(stage, { minLength: 1, maxLength: 4 })
  .map((stages) => ({ kind: 'Pipeline', stages }));

/** JSON events shaped like the fields the generators use. */
export const event: Arbitrary<Obj> = fc.dictionary(segment, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 });
