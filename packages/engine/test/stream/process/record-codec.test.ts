import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { compile } from '@weir/pdl';
import { withRule } from '../../../src/rules/rule-alert.ts';
import type { JsonObject } from '../../../src/tasks/index.ts';
import { runPipeline } from '../../../src/tasks/pipeline.ts';
import type { CompiledTask, RuleSource, TaskRecord } from '../../../src/tasks/task-function.ts';
import {
  closedWith,
  decodeValue,
  encodeValue,
  jsonBytes,
  spliced,
  type JsonBytes,
} from '../../../src/stream/process/record-codec.ts';
import { makeTask } from '../../tasks/task-harness.ts';

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

test("jsonBytes: an object's JSON bytes made once per record's map; without one, made each time", () => {
  const value = { a: [1, 'x'] };
  const bytes = new Map<object, string | Buffer>();
  assert.equal(jsonBytes(value, bytes).toString(), '{"a":[1,"x"]}');
  assert.deepEqual([...bytes], [[value, Buffer.from('{"a":[1,"x"]}')]]);
  value.a.push(2);
  assert.equal(jsonBytes(value, bytes).toString(), '{"a":[1,"x"]}');
  assert.equal(jsonBytes(value, undefined).toString(), '{"a":[1,"x",2]}');
  assert.deepEqual(encodeValue('String', value, bytes), Buffer.from('{"a":[1,"x"]}'));
  // a numeric serde reads the same text
  assert.throws(() => encodeValue('Integer', value, bytes));
});

test("closedWith: an object's JSON (text or bytes) with its closing brace replaced by a tail, in UTF-8", () => {
  for (const json of ['{"a":"é😀"}', Buffer.from('{"a":"é😀"}')])
    assert.deepEqual(closedWith(json, ',"é":"ü"}'), Buffer.from('{"a":"é😀","é":"ü"}'));
  assert.deepEqual(closedWith('{}', '"b":2}'), Buffer.from('{"b":2}'));
  assert.deepEqual(closedWith(Buffer.from('{}'), '"b":2}'), Buffer.from('{"b":2}'));
});

test("spliced: a copy with keys added after its base's own serialises as JSON.stringify does, from the base bytes", () => {
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
        // from the base's text and from its bytes: the same
        const fromText = spliced(value, base, JSON.stringify(base));
        assert.deepEqual(spliced(value, base, Buffer.from(JSON.stringify(base))), fromText);
        // a numeral key ("1") is ordered first, a key the base has changes in place: refused, never wrong
        if (fromText !== undefined) assert.deepEqual(fromText, Buffer.from(JSON.stringify(value)));
        else assert.ok(added.some(([key]) => key === '1') || Object.keys(value).length < Object.keys(base).length);
      },
    ),
    { numRuns: 300 },
  );
  const text = (value: JsonObject, base: JsonObject, baseText: string) => spliced(value, base, baseText)?.toString();
  assert.equal(text({ a: 1, _rule: 'r' }, { a: 1 }, '{"a":1}'), '{"a":1,"_rule":"r"}');
  assert.equal(text({ a: undefined, _rule: 'r' }, { a: undefined }, '{}'), '{"_rule":"r"}');
  assert.equal(text({ a: 'é', _rule: 'ü' }, { a: 'é' }, '{"a":"é"}'), '{"a":"é","_rule":"ü"}');
  // nothing added (or only undefined values): the base's own bytes
  const base = Buffer.from('{"a":1}');
  assert.equal(spliced({ a: 1, _rule: undefined }, { a: 1 }, base), base);
  assert.deepEqual(spliced({ a: 1, _rule: undefined }, { a: 1 }, '{"a":1}'), base);
  // a value changed since the copy, or a key the base had replaced: not the base's bytes
  assert.equal(text({ a: 2, _rule: 'r' }, { a: 1 }, '{"a":1}'), undefined);
  assert.equal(text({ _rule: 'new' }, { _rule: 'old' }, '{"_rule":"old"}'), undefined);
});

test("jsonBytes: the alerts of one event (withRule's copies) take the event's bytes, written once", () => {
  const event = { x: { n: 1 }, s: 'é' };
  const entry = (id: string) => ({ id, name: id, annotations: [], enabled: true, compiled: compile('x.n = 1') });
  const [a, b] = [withRule(event, entry('a')), withRule(event, entry('b'))];
  b['_time'] = 5;
  const bytes = new Map<object, string | Buffer>();
  assert.deepEqual(jsonBytes(a, bytes), Buffer.from(JSON.stringify(a)));
  assert.deepEqual(jsonBytes(b, bytes), Buffer.from(JSON.stringify(b)));
  // the event as its text (it is not written itself), the alerts as bytes
  assert.deepEqual(
    [...bytes],
    [
      [event, JSON.stringify(event)],
      [a, Buffer.from(JSON.stringify(a))],
      [b, Buffer.from(JSON.stringify(b))],
    ],
  );
  // the event written too: its bytes from then on
  assert.deepEqual(jsonBytes(event, bytes), Buffer.from(JSON.stringify(event)));
  assert.deepEqual(bytes.get(event), Buffer.from(JSON.stringify(event)));
  // changed after the copy: its own JSON
  const c = withRule(event, entry('c'));
  c['x'] = { n: 2 };
  assert.deepEqual(jsonBytes(c, bytes), Buffer.from(JSON.stringify(c)));
});

test("an alert of an event APPLY_RULES parsed from its record's text: the bytes JSON.stringify gives, also when a later task changed the nested values it shares with the event (no JSON of the event kept from before)", () => {
  const rules: RuleSource = {
    get: (id) => ({ id, name: id, annotations: [], enabled: true, compiled: compile('x.n = 1') }),
  };
  // a task that changes a nested value in place (the alerts share the event's nested values)
  const bump: CompiledTask = {
    id: 9,
    name: 'bump',
    function: 'EVAL',
    run: (record) => {
      (record.value as { x: { n: number } }).x.n++;
      return { kind: 'records', records: [record] };
    },
  };
  const text = '{"x":{"n":1},"s":"a \\"quoted\\" é","_time":9}';
  const bytesOf = (records: readonly TaskRecord[]) => {
    const bytes: JsonBytes = new Map();
    return records.map((r) => encodeValue('String', r.value, bytes).toString('utf8'));
  };
  const last = runPipeline([makeTask('APPLY_RULES', { rules: ['a', 'b'] }, { rules })], { value: text, timestamp: 1 });
  assert.deepEqual(
    bytesOf(last.records),
    last.records.map((r) => JSON.stringify(r.value)),
  );
  assert.equal(
    bytesOf(last.records)[0],
    '{"x":{"n":1},"s":"a \\"quoted\\" é","_time":9,"_rule":{"id":"a","name":"a","annotations":[]}}',
  );
  const then = runPipeline([makeTask('APPLY_RULES', { rules: ['a', 'b'] }, { rules }), bump], {
    value: text,
    timestamp: 1,
  });
  assert.deepEqual(
    bytesOf(then.records),
    then.records.map((r) => JSON.stringify(r.value)),
  );
  assert.match(bytesOf(then.records)[0]!, /^\{"x":\{"n":2\}/);
});
