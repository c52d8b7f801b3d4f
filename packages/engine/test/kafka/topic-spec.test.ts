import assert from 'node:assert/strict';
import { test } from 'node:test';
import { topicNameProblem } from '@weir/contract';
import { validateTopic, validateTopics } from '../../src/kafka/topic-spec.ts';

test('topic names follow Kafka rules', () => {
  for (const ok of ['a', 'weir_alerts', 'A.b-c_9', 'x'.repeat(249), '...'])
    assert.equal(topicNameProblem(ok), undefined, ok);
  assert.equal(topicNameProblem(''), 'must not be empty');
  assert.equal(topicNameProblem('.'), "must not be '.' or '..'");
  assert.equal(topicNameProblem('..'), "must not be '.' or '..'");
  assert.equal(topicNameProblem('x'.repeat(250)), 'is 250 characters long; at most 249 are allowed');
  for (const bad of ['a b', 'a/b', 'ä', 'a:b', 'a*'])
    assert.match(topicNameProblem(bad) ?? '', /contains characters other than/, bad);
});

test('a valid topic: options become strings; compact sets cleanup.policy unless given', () => {
  assert.deepEqual(
    validateTopic({
      name: 't',
      numberOfPartitions: 2,
      replicationFactor: 1,
      options: { 'retention.ms': 1000, preallocate: false },
    }),
    {
      ok: true,
      topic: {
        name: 't',
        numberOfPartitions: 2,
        replicationFactor: 1,
        options: { 'retention.ms': '1000', preallocate: 'false' },
      },
    },
  );
  assert.deepEqual(validateTopic({ name: 't', numberOfPartitions: 1, replicationFactor: 1, compact: true }), {
    ok: true,
    topic: { name: 't', numberOfPartitions: 1, replicationFactor: 1, options: { 'cleanup.policy': 'compact' } },
  });
  assert.deepEqual(validateTopic({ name: 't', numberOfPartitions: 1, replicationFactor: 1, options: null }), {
    ok: true,
    topic: { name: 't', numberOfPartitions: 1, replicationFactor: 1, options: {} },
  });
});

test('every violated field is listed, with its path', () => {
  assert.deepEqual(validateTopic({ numberOfPartitions: '1', replicationFactor: 0, extra: 1 }), {
    ok: false,
    violations: [
      '$.extra: unknown field; accepted: name, numberOfPartitions, replicationFactor, options, compact',
      '$.name: is required',
      '$.numberOfPartitions: must be an integer >= 1, found string "1"',
      '$.replicationFactor: must be an integer >= 1, found 0',
    ],
  });
  assert.deepEqual(validateTopic({ name: 't', numberOfPartitions: 2 ** 31, replicationFactor: 40000 }), {
    ok: false,
    violations: [
      '$.numberOfPartitions: must be an integer <= 2147483647, found 2147483648',
      '$.replicationFactor: must be an integer <= 32767, found 40000',
    ],
  });
  assert.deepEqual(validateTopic(null), {
    ok: false,
    violations: ['$: must be an object with name, numberOfPartitions, replicationFactor and options, found null'],
  });
});

test('arrays: one invalid element fails the request, violations carry the index', () => {
  const good = { name: 'a', numberOfPartitions: 1, replicationFactor: 1 };
  assert.deepEqual(validateTopics([good]), { ok: true, topics: [{ ...good, options: {} }] });
  assert.deepEqual(validateTopics([good, { ...good, replicationFactor: -1 }]), {
    ok: false,
    violations: ['$[1].replicationFactor: must be an integer >= 1, found -1'],
  });
  assert.deepEqual(validateTopics('x'), { ok: false, violations: ['$: must be an array of topics, found string "x"'] });
  assert.deepEqual(validateTopics(Array(1001).fill(good)), {
    ok: false,
    violations: ['$: at most 1000 topics per request, found 1001'],
  });
});
