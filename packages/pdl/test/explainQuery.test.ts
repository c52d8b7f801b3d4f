import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compile, parse } from '../src/index.ts';
import type { Pipeline, Query } from '../src/index.ts';
import { explainQuery } from '../src/explainQuery.ts';
import { makeEvent, makeRule, prng } from '../../../bench/pdl-corpus.ts';
import { event, query } from './arbitraries.ts';

function queryOf(text: string): Query {
  const stage = parse(text).stages[0];
  assert.equal(stage?.kind, 'QueryStage');
  return stage.query;
}

describe('explainQuery', () => {
  test('every node with its PDL text, its truth value and, for leaves, the values seen', () => {
    const tree = explainQuery(queryOf('user = "bob" AND (port > 1000 OR NOT a.b ?= "x")'), {
      user: 'bob',
      port: '80',
    });
    assert.deepEqual(tree, {
      kind: 'And',
      pdl: 'user = "bob" AND (port > 1000 OR NOT a.b ?= "x")',
      line: 1,
      column: 1,
      result: true,
      operands: [
        {
          kind: 'Comparison',
          pdl: 'user = "bob"',
          line: 1,
          column: 1,
          result: true,
          fields: [{ field: 'user', present: true, value: 'bob' }],
        },
        {
          kind: 'Or',
          pdl: 'port > 1000 OR NOT a.b ?= "x"',
          line: 1,
          column: 19,
          result: true,
          operands: [
            {
              kind: 'Comparison',
              pdl: 'port > 1000',
              line: 1,
              column: 19,
              result: false,
              fields: [{ field: 'port', present: true, value: '80' }],
            },
            {
              kind: 'Not',
              pdl: 'NOT a.b ?= "x"',
              line: 1,
              column: 34,
              result: true,
              operands: [
                {
                  kind: 'Comparison',
                  pdl: 'a.b ?= "x"',
                  line: 1,
                  column: 38,
                  result: false,
                  fields: [{ field: 'a.b', present: false }],
                },
              ],
            },
          ],
        },
      ],
    });
  });

  test('a field-against-field comparison shows both fields; IN shows its field', () => {
    const both = explainQuery(queryOf('src = dst'), { src: '10.0.0.1' });
    assert.deepEqual(both.fields, [
      { field: 'src', present: true, value: '10.0.0.1' },
      { field: 'dst', present: false },
    ]);
    assert.equal(both.result, false);
    const list = explainQuery(queryOf('x IN [1, null]'), {});
    assert.deepEqual(list.fields, [{ field: 'x', present: false }]);
    assert.equal(list.result, true); // null in the list matches a missing field, as compiled
  });

  test("property: the tree's verdict is the compiled query's, over generated queries and events", () => {
    fc.assert(
      fc.property(query, event, (q, e) => {
        const ast = { kind: 'Pipeline', stages: [{ kind: 'QueryStage', query: q }] } as unknown as Pipeline;
        assert.equal(explainQuery(q as unknown as Query, e).result, compile(ast).run(e) !== null);
      }),
      { numRuns: 1000 },
    );
  });

  test("property: the tree's verdict is the compiled rule's over the benchmark corpus (300 rules x 300 events)", () => {
    const random = prng(22);
    const rules = Array.from({ length: 300 }, (_, k) => makeRule(random, k).pdl);
    const events = Array.from({ length: 300 }, () => makeEvent(random));
    let matches = 0;
    for (const text of rules) {
      const program = compile(text);
      const q = queryOf(text);
      for (const e of events) {
        const expected = program.run(e) !== null;
        if (expected) matches++;
        assert.equal(explainQuery(q, e).result, expected, `${text} on ${JSON.stringify(e)}`);
      }
    }
    assert.ok(matches > 0, 'the corpus has matching pairs'); // both verdicts are exercised
  });
});
