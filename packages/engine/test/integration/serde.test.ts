import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestNode } from '@weir/test-helpers/test-node';

test('GET /api/config/serde lists the serde, serializer and deserializer classes', async () => {
  const t = await startTestNode();
  try {
    const token = await t.initAdmin();
    const res = await t.call('GET', '/api/config/serde', { token });
    assert.equal(res.status, 200);
    const body = res.body as Record<string, string[]>;
    assert.deepEqual(Object.keys(body), ['serde', 'serializer', 'deserializer']);
    assert.equal(body.serde!.length, 9);
    assert.ok(body.serde!.includes('org.apache.kafka.common.serialization.Serdes$StringSerde'));
    assert.ok(body.serializer!.includes('org.apache.kafka.common.serialization.ByteArraySerializer'));
    assert.ok(body.deserializer!.includes('org.apache.kafka.common.serialization.UUIDDeserializer'));
  } finally {
    await t.stop();
  }
});
