import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { deserialize, SerdeError, serialize } from '../../src/kafka/serde-codecs.ts';

const hex = (b: Buffer | null) => b?.toString('hex');

test("bytes are those of Kafka's Java serializers", () => {
  assert.equal(hex(serialize('String', 'é')), 'c3a9');
  assert.equal(hex(serialize('String', { a: 1 })), Buffer.from('{"a":1}').toString('hex'));
  assert.equal(hex(serialize('Integer', 1)), '00000001');
  assert.equal(hex(serialize('Integer', -1)), 'ffffffff');
  assert.equal(hex(serialize('Long', 258)), '0000000000000102');
  assert.equal(hex(serialize('Long', '-9223372036854775808')), '8000000000000000');
  assert.equal(hex(serialize('Float', 1)), '3f800000');
  assert.equal(hex(serialize('Double', -2)), 'c000000000000000');
  assert.equal(
    serialize('UUID', 'ABCDEF00-0000-0000-0000-000000000001')?.toString(),
    'abcdef00-0000-0000-0000-000000000001',
  );
  for (const type of ['ByteArray', 'Bytes', 'ByteBuffer'] as const) assert.equal(hex(serialize(type, 'AP8=')), '00ff');
  assert.equal(serialize('Integer', null), null);
  assert.equal(serialize('String', undefined), null);
});

test('values that do not fit are refused with what is accepted', () => {
  assert.throws(
    () => serialize('Integer', 2 ** 31),
    new SerdeError(
      '2147483648 does not fit IntegerSerializer; accepted: a JSON integer from -2147483648 to 2147483647',
    ),
  );
  assert.throws(() => serialize('Integer', '1'), SerdeError);
  assert.throws(() => serialize('Long', 2 ** 60), SerdeError, 'beyond 2^53 a number has lost digits: use a string');
  assert.throws(() => serialize('Long', '9223372036854775808'), SerdeError);
  assert.throws(() => serialize('Float', 1e39), SerdeError);
  assert.throws(() => serialize('Double', 'NaN'), SerdeError);
  assert.throws(() => serialize('UUID', 'abc'), SerdeError);
  assert.throws(() => serialize('ByteArray', 'a b'), SerdeError);
  assert.throws(() => serialize('Bytes', 'abc'), SerdeError, 'base64 needs padding to a multiple of 4');
});

test('deserializers check sizes as Java does; Long beyond 2^53 reads as a string; Float prints short', () => {
  assert.throws(
    () => deserialize('Integer', Buffer.from('abc')),
    new SerdeError('Size of data received by IntegerDeserializer is not 4 (it is 3)'),
  );
  assert.throws(() => deserialize('Long', Buffer.alloc(4)), SerdeError);
  assert.throws(() => deserialize('UUID', Buffer.from('nope')), SerdeError);
  assert.equal(deserialize('Long', Buffer.from('7fffffffffffffff', 'hex')), '9223372036854775807');
  assert.equal(deserialize('Float', serialize('Float', 1.1)), 1.1);
  assert.equal(deserialize('Float', Buffer.from('7fc00000', 'hex')), 'NaN');
  assert.equal(deserialize('Double', Buffer.from('fff0000000000000', 'hex')), '-Infinity');
  assert.equal(deserialize('String', null), null);
});

test('round trips (property)', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
      (n) => deserialize('Integer', serialize('Integer', n)) === n,
    ),
  );
  fc.assert(
    fc.property(
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      (n) => String(deserialize('Long', serialize('Long', n.toString()))) === n.toString(),
    ),
  );
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) =>
      Object.is(deserialize('Double', serialize('Double', n)), n),
    ),
  );
  fc.assert(
    fc.property(fc.float({ noNaN: true, noDefaultInfinity: true }), (n) =>
      Object.is(Math.fround(deserialize('Float', serialize('Float', n)) as number), n),
    ),
  );
  fc.assert(fc.property(fc.string(), (s) => deserialize('String', serialize('String', s)) === s));
  fc.assert(
    fc.property(fc.uint8Array(), (bytes) => {
      const b64 = Buffer.from(bytes).toString('base64');
      return deserialize('ByteBuffer', serialize('ByteBuffer', b64)) === b64;
    }),
  );
  fc.assert(fc.property(fc.uuid(), (u) => deserialize('UUID', serialize('UUID', u)) === u.toLowerCase()));
});
