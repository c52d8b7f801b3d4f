import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertRefusals, useInProcessNode } from '../helpers/in-process-node.ts';

const t = useInProcessNode();
const serdes = ['Float', 'ByteArray', 'Bytes', 'ByteBuffer', 'Double', 'Integer', 'Long', 'String', 'UUID'];
const kafka = 'org.apache.kafka.common.serialization';

test('GET /api/config/serde refuses callers without a token', async () => {
  await assertRefusals(t.node, t.tokens.user, 'GET', '/api/config/serde', { adminOnly: false });
});

test('GET /api/config/serde lists the serde, serializer and deserializer classes (spec: the service)', async () => {
  const res = await t.node.call('GET', '/api/config/serde', { token: t.tokens.user });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, {
    serde: serdes.map((s) => `${kafka}.Serdes$${s}Serde`),
    serializer: serdes.map((s) => `${kafka}.${s}Serializer`),
    deserializer: serdes.map((s) => `${kafka}.${s}Deserializer`),
  });
});
