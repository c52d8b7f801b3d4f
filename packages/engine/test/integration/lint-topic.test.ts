import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProduceAcks, Producer } from '@platformatic/kafka';
import { notFound } from '@weir/test-helpers/error-bodies';
import { createTopics } from '@weir/test-helpers/kafka';
import { testBootstrap, useTestNode } from '@weir/test-helpers/test-node';
import { uniqueTopic } from '@weir/test-helpers/topics';

/**
 * POST /api/lint/pdl with `topic` against the real broker: the topic's most recent records (across
 * its partitions, by timestamp; non-JSON records skipped) are the sample of the never-seen-field
 * check, read outside any consumer group.
 */
const topic = uniqueTopic('lint-sample');
const T = Date.UTC(2024, 5, 1);
let token = '';

const tn = useTestNode({}, async () => {
  token = await tn.initAdmin();
  await createTopics([topic], 2);
  const producer = new Producer({ clientId: 'weir-lint-test', bootstrapBrokers: [testBootstrap()], idempotent: true });
  const at = (partition: number, seconds: number, value: string) => ({
    topic,
    partition,
    value: Buffer.from(value),
    timestamp: BigInt(T + seconds * 1000),
  });
  try {
    await producer.send({
      messages: [
        // older: only `legacy_user`
        ...Array.from({ length: 10 }, (_, i) => at(0, i, JSON.stringify({ legacy_user: `u${i}` }))),
        // newest: `user` and `host` on the other partition, and a text record between them
        at(1, 30, JSON.stringify({ user: 'bob', host: 'h1' })),
        at(0, 31, 'user=bob not json'),
        at(1, 32, JSON.stringify({ user: 'eve', host: 'h2' })),
        at(1, 33, JSON.stringify({ user: 'ann', host: { name: 'h3' } })),
      ],
      acks: ProduceAcks.ALL,
    });
  } finally {
    await producer.close();
  }
});

const lint = (body: unknown) => tn.call('POST', '/api/lint/pdl', { token, body });

test('the topic’s most recent records are the sample: a field only older records hold is not seen', async () => {
  const r = await lint({ pdl: 'legacy_user = "u1" AND usr = "bob"', topic, sample: 4 });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, {
    errors: 0,
    warnings: 2,
    infos: 0,
    diagnostics: [
      {
        code: 'PDL_FIELD_NOT_SEEN',
        severity: 'warning',
        message: `field \`legacy_user\` is in none of the 3 sample event(s) of topic ${topic}`,
        line: 1,
        column: 1,
        endLine: 1,
        endColumn: 12,
      },
      {
        code: 'PDL_FIELD_NOT_SEEN',
        severity: 'warning',
        message: `field \`usr\` is in none of the 3 sample event(s) of topic ${topic} (did you mean \`user\`?)`,
        line: 1,
        column: 24,
        endLine: 1,
        endColumn: 27,
        fix: {
          title: 'Use field `user`',
          edits: [{ range: { line: 1, column: 24, endLine: 1, endColumn: 27 }, text: 'user' }],
        },
      },
    ],
  });
});

test('a larger sample reaches the older records; nested fields count', async () => {
  const r = await lint({ pdl: 'legacy_user = "u1" OR host.name = "h3"', topic, sample: 20 });
  assert.deepEqual([r.status, r.body], [200, { errors: 0, warnings: 0, infos: 0, diagnostics: [] }]);
});

test('an unknown topic is 404 TOPIC_MISSING naming it; no consumer group is left behind', async () => {
  const missing = `${topic}-none`;
  const r = await lint({ pdl: 'user = "bob"', topic: missing });
  assert.deepEqual(
    [r.status, r.body],
    [404, { ...notFound('Requested topic does not exist'), errors: [`topic: topic '${missing}' does not exist`] }],
  );
  const groups = await tn.call('GET', '/api/consumer-groups', { token });
  assert.equal(groups.status, 200, groups.text);
  assert.deepEqual(
    (groups.body as { id: string }[]).filter((g) => g.id.includes('lint')),
    [],
  );
});
