import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BaseRule } from '../src/baseRule.ts';
import { baseQuery } from '../src/baseRule.ts';
import { readMetadata } from '../src/metadata.ts';
import { parseMapping } from '../src/mapping.ts';

const mapping = parseMapping('name: t\n');

function rule(logsourceCondition: string | null, detection: string, filters: string[] = []): BaseRule {
  return {
    index: 0,
    doc: {},
    meta: readMetadata({ title: 't' }, null),
    weirId: 'sigma-t',
    logsource: {},
    logsourceCondition,
    ctx: { mapping, fields: {} },
    detection,
    filters: filters.map((query, i) => ({ id: `f${i}`, query })),
    warnings: [],
    usedBy: [],
    generate: true,
  };
}

test("baseQuery: the log source's condition, the detection and the filters, each grouped, under AND", () => {
  assert.equal(baseQuery(rule(null, 'a = 1 OR b = 2')), 'a = 1 OR b = 2');
  assert.equal(baseQuery(rule('EventID = 1', 'a = 1 OR b = 2')), 'EventID = 1 AND (a = 1 OR b = 2)');
  assert.equal(
    baseQuery(rule('Channel = "x" AND EventID = 1', 'a = 1', ['NOT (u = "SYSTEM" OR u = "LOCAL")', 'v != 2'])),
    '(Channel = "x" AND EventID = 1) AND a = 1 AND NOT (u = "SYSTEM" OR u = "LOCAL") AND v != 2',
  );
});
