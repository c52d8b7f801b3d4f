import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeValue, encodeValue, jsonText } from '../../../src/stream/process/record-codec.ts';

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
