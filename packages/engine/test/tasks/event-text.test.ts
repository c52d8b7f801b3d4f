import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { withRule } from '../../src/rules/rule-alert.ts';
import { canonicalJson, dropEventTexts, eventText, keepEventText } from '../../src/tasks/event-text.ts';
import type { JsonObject } from '../../src/tasks/index.ts';

const rule = { id: 'r1', name: 'one', annotations: [] } as never;
const roundTrips = (text: string) => JSON.stringify(JSON.parse(text)) === text;

test('canonicalJson: true only when JSON.stringify gives the text back (arbitrary JSON, as written and reformatted)', () => {
  const json = fc.jsonValue();
  fc.assert(
    fc.property(json, fc.integer({ min: 0, max: 3 }), (value, form) => {
      // the text as JSON.stringify writes it, indented, with escapes spelled out, or with spaces after colons
      const plain = JSON.stringify(value);
      const text = [
        plain,
        JSON.stringify(value, null, 1),
        plain.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
        plain.replaceAll('":', '": '),
      ][form]!;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return; // a replacement inside a string's escape: not JSON, not a case
      }
      if (canonicalJson(text, parsed)) assert.ok(roundTrips(text), text);
    }),
    { numRuns: 2000 },
  );
});

test('canonicalJson: an object written by JSON.stringify with integers, strings, nesting and non-ASCII text is taken', () => {
  const key = fc.string().filter((k) => !/^\d+$/.test(k));
  const leaf = fc.oneof(
    fc.string({ unit: 'grapheme' }),
    fc.integer({ min: -1e9, max: 1e9 }).filter((n) => !Object.is(n, -0)),
    fc.boolean(),
    fc.constant(null),
  );
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node')), fc.dictionary(key, tie('node'))),
  })).node;
  fc.assert(
    fc.property(fc.dictionary(key, value), (event) => {
      const text = JSON.stringify(event);
      assert.equal(canonicalJson(text, JSON.parse(text)), true, text);
    }),
    { numRuns: 1000 },
  );
});

test('canonicalJson: each text JSON.stringify would write otherwise is refused', () => {
  const refused = [
    '{"a": 1}', // white space
    '{ "a":1}',
    '{"a":1.0}', // numbers not in their shortest form, or not integers of 15 digits or fewer
    '{"a":1.5}',
    '{"a":1e3}',
    '{"a":-0}',
    '{"a":1234567890123456}',
    '{"a":"\\/"}', // escapes JSON.stringify does not write
    '{"a":"\\u0041"}',
    '{"a":"\\u001b"}', // one it does write, refused all the same (safe)
    '{"a":"\\ud800"}',
    '{"1":1,"a":2}', // an array-index key: JSON.parse puts it first
    '{"b":1,"1":2}',
    '{"a":1,"a":2}', // a key twice
    '{"o":{"a":1,"a":2}}',
    '[{"a":1},{"b":2,"b":3}]',
  ];
  for (const text of refused) assert.equal(canonicalJson(text, JSON.parse(text)), false, text);
  // a lone surrogate written as such (not from UTF-8 bytes, but a string may hold one)
  const lone = `{"a":"x${String.fromCharCode(0xd800)}y"}`;
  assert.equal(canonicalJson(lone, JSON.parse(lone)), false);
  const taken = [
    '{}',
    '{"a":[]}',
    '{"":0,"__proto__":{"b":[1,-2,true,false,null]},"t":"tab\\there \\"q\\" \\\\ é 😀"}',
    '{"n":123456789012345,"m":-123456789012345}',
  ];
  for (const text of taken) {
    assert.ok(roundTrips(text), text);
    assert.equal(canonicalJson(text, JSON.parse(text)), true, text);
  }
});

test("keepEventText keeps a canonical text for the event parsed from it; dropEventTexts forgets it for its alerts' event", () => {
  const text = '{"a":{"b":1},"c":"d"}';
  const event = JSON.parse(text) as JsonObject;
  keepEventText(event, text);
  assert.equal(eventText(event), text);
  const alert = withRule(event, rule);
  dropEventTexts([
    { value: alert, timestamp: 0 },
    { value: 'text', timestamp: 0 },
  ]);
  assert.equal(eventText(event), undefined);
  const spaced = '{"a": 1}';
  const other = JSON.parse(spaced) as JsonObject;
  keepEventText(other, spaced);
  assert.equal(eventText(other), undefined);
});
