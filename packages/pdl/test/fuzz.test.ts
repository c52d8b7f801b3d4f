// Property tests: hostile text and hostile events.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { check, compile, isPdlSyntaxError, print } from '../src/index.ts';
import type { Pipeline } from '../src/index.ts';
import { event, pipeline } from './arbitraries.ts';

const fragments = [
  'a',
  'user',
  'x.y',
  '`q q`',
  '=',
  '!=',
  '?=',
  '~=',
  '<',
  '>=',
  'IN',
  'AND',
  'OR',
  'NOT',
  'AS',
  'OUTPUT',
  '(',
  ')',
  '[',
  ']',
  ',',
  '|',
  '||',
  '"s"',
  '"a*\\\\b"',
  '"(?<n>x)"',
  '"("',
  '1',
  '-2.5',
  '5m',
  '0s',
  'true',
  'null',
  '+',
  '*',
  '/',
  '-',
  'eval',
  'fields',
  'keep',
  'rename',
  'flatten',
  'lookup',
  'rex',
  'parse_kv',
  'parse_csv',
  'header=',
  'delimiter=',
  'event_count',
  'value_count',
  'value_avg',
  'temporal',
  'ordered=true',
  'timespan=',
  'group_by',
  'emit=close',
  'reset=false',
  'suppress=1h',
  'where',
  'if(',
  'lower(',
  'replace(',
  'now()',
  '\n',
  ' ',
  '"unterminated',
  '`',
  '.',
  '#',
  '\\',
];

const pdlish = fc.array(fc.constantFrom(...fragments), { maxLength: 25 }).map((parts) => parts.join(' '));
const glued = fc.array(fc.constantFrom(...fragments), { maxLength: 25 }).map((parts) => parts.join(''));

function onlySyntaxErrors(text: string): void {
  try {
    compile(text);
  } catch (error) {
    if (!isPdlSyntaxError(error)) throw error;
    assert.ok(error.line >= 1 && error.column >= 1);
    assert.match(error.message, /^line \d+, column \d+: /);
  }
  const result = check(text);
  assert.equal(typeof result.result, 'boolean');
}

describe('fuzz', () => {
  test('random text never throws anything but PdlSyntaxError', () => {
    fc.assert(fc.property(fc.oneof(pdlish, glued, fc.string({ maxLength: 60 })), onlySyntaxErrors), { numRuns: 2000 });
  });

  test('random events never make a compiled program throw', () => {
    const rules = [
      'port=443 AND tags ?= "vpn" OR user ~= "(?i)^b" OR a.b >= 2 OR x IN [1, "y*", null] OR user = a',
      'user = "*" | eval r = if(port > 1024, "low", "high"), w = upper(user) + len(tags) * 2 - tonumber(port) / 0, s = substr(user, -2, 1)',
      'eval c = coalesce(missing, a.b, "d"), t = tostring(a), n = round(x, 2), p = split(user, ","), q = replace(user, "(?<x>o)", "$<x>")',
      'rename a.b AS z | fields keep z, user, tags | flatten',
      'rex user "(?<first>\\w)(?<rest>.*)" | parse_kv user | parse_csv tags header="p, q"',
      'event_count timespan=1m group_by user where _aggregation.value > 2',
      'value_count(user, port) timespan=1h reset=false | value_avg(_aggregation.value) timespan=1d emit=close',
      'temporal(ordered=true) [ user = "*" AS u || port > 1 AS p ] timespan=1m group_by a where _temporal.matched >= 1',
    ].map((text) => compile(text));
    fc.assert(
      fc.property(event, fc.integer(), (e, timestamp) => {
        for (const rule of rules) {
          rule.run(e);
          rule.feed(e, { timestamp });
        }
      }),
      { numRuns: 500 },
    );
    for (const rule of rules) {
      rule.advanceTime(Date.now() + 1e10);
      assert.equal(rule.counters.evaluationErrors, 0);
    }
  });

  test('generated programs compile and never throw on random events', () => {
    fc.assert(
      fc.property(pipeline, fc.array(event, { maxLength: 5 }), (ast, events) => {
        const program = compile(ast as unknown as Pipeline, { now: () => 0 });
        for (const e of events) {
          program.run(e);
          program.feed(e, { timestamp: 1 });
        }
        program.advanceTime(1e12);
        assert.equal(program.counters.evaluationErrors, 0, print(ast as unknown as Pipeline));
      }),
      { numRuns: 300 },
    );
  });
});
