import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { compile } from '@weir/pdl';
import { withRule } from '../../../src/rules/rule-alert.ts';
import { decodeValue, encodeValue, jsonText, spliced } from '../../../src/stream/process/record-codec.ts';

test('String and byte serdes are read as UTF-8 text; numeric serdes as the text of their value', () => {
  assert.equal(decodeValue('String', Buffer.from('{"a":1}')), '{"a":1}');
  assert.equal(decodeValue('ByteArray', Buffer.from('line')), 'line');
  assert.equal(decodeValue('Integer', Buffer.from([0, 0, 1, 0])), '256');
});

test('events are written as JSON text; a numeric serde takes text holding its type, else it throws', () => {
  assert.equal(encodeValue('String', { a: 1 }).toString(), '{"a":1}');
  assert.equal(encodeValue('Bytes', 'raw').toString(), 'raw');
  assert.deepEqual(encodeValue('Integer', '256'), Buffer.from([0, 0, 1, 0]));
  assert.throws(() => encodeValue('Integer', 'not a number'));
});

test("jsonText: an object's JSON made once per record's texts; without texts, made each time", () => {
  const value = { a: [1, 'x'] };
  const texts = new Map<object, string>();
  assert.equal(jsonText(value, texts), '{"a":[1,"x"]}');
  assert.deepEqual([...texts], [[value, '{"a":[1,"x"]}']]);
  value.a.push(2);
  assert.equal(jsonText(value, texts), '{"a":[1,"x"]}');
  assert.equal(jsonText(value, undefined), '{"a":[1,"x",2]}');
  assert.deepEqual(encodeValue('String', value, texts), Buffer.from('{"a":[1,"x"]}'));
});

test("spliced: a copy with keys added after its base's own serialises as JSON.stringify does, from the base text", () => {
  fc.assert(
    fc.property(
      fc.dictionary(fc.string(), fc.jsonValue()),
      fc.array(
        fc.tuple(
          fc.constantFrom('_rule', '_time', 'z', '1', '__proto__'),
          fc.option(fc.jsonValue(), { nil: undefined }),
        ),
      ),
      (base, added) => {
        const value: Record<string, unknown> = { ...base };
        for (const [key, v] of added)
          if (!Object.hasOwn(base, key))
            Object.defineProperty(value, key, { value: v, enumerable: true, writable: true, configurable: true });
        const text = spliced(value, base, JSON.stringify(base));
        // a numeral key ("1") is ordered first, a key the base has changes in place: refused, never wrong
        if (text !== undefined) assert.equal(text, JSON.stringify(value));
        else assert.ok(added.some(([key]) => key === '1') || Object.keys(value).length < Object.keys(base).length);
      },
    ),
    { numRuns: 300 },
  );
  assert.equal(spliced({ a: 1, _rule: 'r' }, { a: 1 }, '{"a":1}'), '{"a":1,"_rule":"r"}');
  assert.equal(spliced({ a: undefined, _rule: 'r' }, { a: undefined }, '{}'), '{"_rule":"r"}');
  // a value changed since the copy, or a key the base had replaced: not the base's text
  assert.equal(spliced({ a: 2, _rule: 'r' }, { a: 1 }, '{"a":1}'), undefined);
  assert.equal(spliced({ _rule: 'new' }, { _rule: 'old' }, '{"_rule":"old"}'), undefined);
});

test("jsonText: the alerts of one event (withRule's copies) take the event's text, written once", () => {
  const event = { x: { n: 1 }, s: 'é' };
  const entry = (id: string) => ({ id, name: id, annotations: [], enabled: true, compiled: compile('x.n = 1') });
  const [a, b] = [withRule(event, entry('a')), withRule(event, entry('b'))];
  b['_time'] = 5;
  const texts = new Map<object, string>();
  assert.equal(jsonText(a, texts), JSON.stringify(a));
  assert.equal(jsonText(b, texts), JSON.stringify(b));
  assert.deepEqual([...texts.keys()], [event, a, b]);
  // changed after the copy: its own JSON
  const c = withRule(event, entry('c'));
  c['x'] = { n: 2 };
  assert.equal(jsonText(c, texts), JSON.stringify(c));
});
