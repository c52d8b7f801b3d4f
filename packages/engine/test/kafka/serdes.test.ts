import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serdeConfiguration, serdeTypeOf } from '../../src/kafka/serdes.ts';

test('the serde lists name the nine types in the three class forms', () => {
  const pkg = 'org.apache.kafka.common.serialization';
  const types = ['Float', 'ByteArray', 'Bytes', 'ByteBuffer', 'Double', 'Integer', 'Long', 'String', 'UUID'];
  assert.deepEqual(serdeConfiguration, {
    serde: types.map((t) => `${pkg}.Serdes$${t}Serde`),
    serializer: types.map((t) => `${pkg}.${t}Serializer`),
    deserializer: types.map((t) => `${pkg}.${t}Deserializer`),
  });
});

test('serdeTypeOf reads any of the three forms and refuses unknown classes', () => {
  assert.equal(serdeTypeOf('org.apache.kafka.common.serialization.Serdes$LongSerde'), 'Long');
  assert.equal(serdeTypeOf('org.apache.kafka.common.serialization.ByteBufferSerializer'), 'ByteBuffer');
  assert.equal(serdeTypeOf('org.apache.kafka.common.serialization.UUIDDeserializer'), 'UUID');
  assert.equal(serdeTypeOf('org.apache.kafka.common.serialization.ShortSerializer'), undefined);
  assert.equal(serdeTypeOf('com.example.StringSerializer'), undefined);
});
