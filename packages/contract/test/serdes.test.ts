import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  defaultDeserializer,
  defaultSerde,
  defaultSerializer,
  serdeConfiguration,
  serdePackage,
  serdeTypes,
} from '../src/serdes.ts';

test("the serde classes are Kafka's, in the order the original engine reports them", () => {
  assert.equal(serdePackage, 'org.apache.kafka.common.serialization');
  assert.deepEqual(serdeTypes, [
    'Float',
    'ByteArray',
    'Bytes',
    'ByteBuffer',
    'Double',
    'Integer',
    'Long',
    'String',
    'UUID',
  ]);
  assert.deepEqual(serdeConfiguration.serde.slice(0, 2), [
    'org.apache.kafka.common.serialization.Serdes$FloatSerde',
    'org.apache.kafka.common.serialization.Serdes$ByteArraySerde',
  ]);
  assert.equal(serdeConfiguration.serializer[8], 'org.apache.kafka.common.serialization.UUIDSerializer');
  assert.equal(serdeConfiguration.deserializer[6], 'org.apache.kafka.common.serialization.LongDeserializer');
  for (const list of Object.values(serdeConfiguration)) assert.equal(list.length, serdeTypes.length);
});

test('the defaults are the String classes, and each is one of its list', () => {
  assert.equal(defaultSerde, 'org.apache.kafka.common.serialization.Serdes$StringSerde');
  assert.equal(defaultSerializer, 'org.apache.kafka.common.serialization.StringSerializer');
  assert.equal(defaultDeserializer, 'org.apache.kafka.common.serialization.StringDeserializer');
  assert.ok(serdeConfiguration.serde.includes(defaultSerde));
  assert.ok(serdeConfiguration.serializer.includes(defaultSerializer));
  assert.ok(serdeConfiguration.deserializer.includes(defaultDeserializer));
});
