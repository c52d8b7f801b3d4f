import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeValue, encodeValue } from '../../../src/stream/process/record-codec.ts';

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
