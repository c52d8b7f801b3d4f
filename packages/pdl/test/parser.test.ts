import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../src/index.ts';
import type { ComparisonQuery, EvalStage, Query, QueryStage } from '../src/index.ts';
import { stripSpans } from './helpers.ts';

function query(text: string): Query {
  return (parse(text).stages[0] as QueryStage).query;
}

/** A compact rendering of a query tree for precedence tests. */
function shape(q: Query): string {
  switch (q.kind) {
    case 'Or':
      return `or(${q.operands.map(shape).join(',')})`;
    case 'And':
      return `and(${q.operands.map(shape).join(',')})`;
    case 'Not':
      return `not(${shape(q.operand)})`;
    case 'Comparison':
      return q.field.path.join('.');
    case 'In':
      return `${q.field.path.join('.')}:in`;
  }
}

describe('parser', () => {
  test('precedence: NOT binds tightest, then AND, then OR; parentheses group', () => {
    assert.equal(shape(query('a=1 OR b=1 AND c=1')), 'or(a,and(b,c))');
    assert.equal(shape(query('a=1 AND b=1 OR c=1')), 'or(and(a,b),c)');
    assert.equal(shape(query('NOT a=1 AND b=1')), 'and(not(a),b)');
    assert.equal(shape(query('NOT (a=1 AND b=1)')), 'not(and(a,b))');
    assert.equal(shape(query('(a=1 OR b=1) AND c=1')), 'and(or(a,b),c)');
    assert.equal(shape(query('a=1 OR b=1 OR c IN [1]')), 'or(a,b,c:in)');
    assert.equal(shape(query('NOT NOT a=1')), 'not(not(a))');
  });

  test('comparison nodes: operator, literal kinds, field on the right', () => {
    const q = query('a != -1.5') as ComparisonQuery;
    assert.deepEqual(stripSpans(q), {
      kind: 'Comparison',
      field: { kind: 'Field', path: ['a'] },
      operator: '!=',
      value: { kind: 'Number', value: -1.5 },
    });
    assert.deepEqual(stripSpans((query('src = dst') as ComparisonQuery).value), { kind: 'Field', path: ['dst'] });
    assert.deepEqual(stripSpans((query('a = null') as ComparisonQuery).value), { kind: 'Null' });
    assert.deepEqual(stripSpans((query('a = true') as ComparisonQuery).value), { kind: 'Boolean', value: true });
    assert.deepEqual(stripSpans((query('a = ["x", 1, false, null]') as ComparisonQuery).value), {
      kind: 'Array',
      elements: [
        { kind: 'String', value: 'x', literalStars: [] },
        { kind: 'Number', value: 1 },
        { kind: 'Boolean', value: false },
        { kind: 'Null' },
      ],
    });
  });

  test('spans: offsets plus line and column on every node', () => {
    const pipeline = parse('a=1\n| eval x = y + 2');
    const evalStage = pipeline.stages[1] as EvalStage;
    assert.deepEqual(evalStage.span, { start: 6, end: 20, line: 2, column: 3 });
    const assignment = evalStage.assignments[0];
    assert.deepEqual(assignment?.value.span, { start: 15, end: 20, line: 2, column: 12 });
    assert.deepEqual(pipeline.stages[0]?.span, { start: 0, end: 3, line: 1, column: 1 });
  });

  test('a leading | is allowed and ignored', () => {
    assert.deepEqual(stripSpans(parse('| fields keep a')), stripSpans(parse('fields keep a')));
  });

  test('a command word is a command only at a stage start with an argument; eval="x" is a query', () => {
    assert.equal(parse('eval="x"').stages[0]?.kind, 'QueryStage');
    assert.equal(parse('flatten != 1').stages[0]?.kind, 'QueryStage');
    assert.equal(parse('fields IN [1]').stages[0]?.kind, 'QueryStage');
    assert.equal(parse('eval x=1').stages[0]?.kind, 'EvalStage');
    assert.equal(parse('a=1 | flatten').stages[1]?.kind, 'FlattenStage');
    assert.equal(shape(query('where=1 AND timespan=2')), 'and(where,timespan)');
  });

  test('keywords are upper case and case-sensitive: `and` is a field', () => {
    assert.throws(() => parse('a=1 and b=2'), /expected AND, OR/);
    assert.equal(shape(query('and=1')), 'and');
    assert.deepEqual((query('`AND`=1') as ComparisonQuery).field.path, ['AND']);
  });

  test('every stage kind parses with its defaults', () => {
    const stages = parse(
      [
        'eval a=1',
        'fields remove a',
        'rename a AS b',
        'flatten',
        'lookup geo ip OUTPUT city',
        'rex msg "(?<n>\\d+)"',
        'parse_kv msg',
        'parse_csv line header="a, b"',
        'event_count timespan=5m',
        'value_count(a, b) timespan=1h',
        'value_sum(a) timespan=1d',
        'value_avg(a) timespan=1w',
        'temporal [ a=1 || b=2 ] timespan=1m',
      ].join(' | '),
    ).stages;
    assert.deepEqual(
      stages.map((s) => s.kind),
      [
        'EvalStage',
        'FieldsStage',
        'RenameStage',
        'FlattenStage',
        'LookupStage',
        'RexStage',
        'ParseKvStage',
        'ParseCsvStage',
        'AggregationStage',
        'AggregationStage',
        'AggregationStage',
        'AggregationStage',
        'TemporalStage',
      ],
    );
    assert.deepEqual(stripSpans(stages[12]), {
      kind: 'TemporalStage',
      ordered: false,
      queries: [
        { kind: 'TemporalQuery', label: null, query: stripSpans(query('a=1')) },
        { kind: 'TemporalQuery', label: null, query: stripSpans(query('b=2')) },
      ],
      options: {
        timespan: { kind: 'Duration', value: 1, unit: 'm' },
        groupBy: [],
        emit: 'event',
        reset: true,
        suppress: null,
        where: null,
      },
    });
    const kv = stripSpans(stages[6]) as { delimiter: string };
    assert.equal(kv.delimiter, '=');
  });

  test('correlation arguments in any order, where last or not', () => {
    const a = stripSpans(
      parse(
        'event_count timespan=5m group_by user, host emit=close reset=false suppress=1h where _aggregation.value > 3',
      ),
    );
    const b = stripSpans(
      parse(
        'event_count where _aggregation.value > 3 suppress=1h reset=false emit=close group_by user, host timespan=5m',
      ),
    );
    assert.deepEqual(a, b);
  });

  test('eval expressions: usual precedence, left associative, negative literals', () => {
    const text = (parse('eval x = 1 + 2 * 3 - 4 / -2').stages[0] as EvalStage).assignments[0]?.value;
    assert.deepEqual(stripSpans(text), {
      kind: 'Binary',
      operator: '-',
      left: {
        kind: 'Binary',
        operator: '+',
        left: { kind: 'Number', value: 1 },
        right: {
          kind: 'Binary',
          operator: '*',
          left: { kind: 'Number', value: 2 },
          right: { kind: 'Number', value: 3 },
        },
      },
      right: {
        kind: 'Binary',
        operator: '/',
        left: { kind: 'Number', value: 4 },
        right: { kind: 'Number', value: -2 },
      },
    });
  });

  test('field names: dashes and colons, dotted paths, backquotes', () => {
    assert.deepEqual((query('winlog.event_data.Image-x:y = 1') as ComparisonQuery).field.path, [
      'winlog',
      'event_data',
      'Image-x:y',
    ]);
    assert.deepEqual((query('`odd field`.x = 1') as ComparisonQuery).field.path, ['odd field', 'x']);
  });
});
