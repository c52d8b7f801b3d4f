import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  consumeBody,
  consumeDefaults,
  consumeQuery,
  maxTopicsPerRequest,
  produceBody,
  topicListSchema,
  topicOrListSchema,
  topicParams,
  topicSpecSchema,
  type TopicBody,
} from '../src/topics.ts';
import { violationsOf } from './helpers/ajv.ts';

const string = 'org.apache.kafka.common.serialization.StringSerializer';
const longDeserializer = 'org.apache.kafka.common.serialization.LongDeserializer';

test('a topic body: a legal name, integer partitions and replicas >= 1, scalar options; a typo is refused', () => {
  const validate = violationsOf(topicSpecSchema);
  assert.deepEqual(validate({ name: 'events', numberOfPartitions: 3, replicationFactor: 1 }), []);
  assert.deepEqual(
    validate({
      name: 'events',
      numberOfPartitions: 3,
      replicationFactor: 1,
      options: { 'cleanup.policy': 'compact', 'retention.ms': 1000, 'x.y': true },
    }),
    [],
  );
  assert.deepEqual(
    validate({ name: 'e', numberOfPartitions: 1, replicationFactor: 1, options: null, compact: true }),
    [],
  );
  assert.deepEqual(validate({ name: 'e', numberOfPartitions: '3', replicationFactor: 0 }).sort(), [
    '/numberOfPartitions type',
    '/replicationFactor minimum',
  ]);
  assert.deepEqual(validate({ name: 'e', partitions: 3, numberOfPartitions: 3, replicationFactor: 1 }), [
    '/ additionalProperties',
  ]);
  assert.deepEqual(validate({ name: 'a b', numberOfPartitions: 1, replicationFactor: 1, options: { x: {} } }).sort(), [
    '/name pattern',
    '/options/x type',
  ]);
  assert.deepEqual(validate({}).sort(), ['/ required', '/ required', '/ required']);
});

test('POST /api/topics takes one topic, or (earlier form) an array of at most 1000', () => {
  const validate = violationsOf(topicOrListSchema);
  const one = { name: 'a', numberOfPartitions: 1, replicationFactor: 1 };
  assert.deepEqual(validate(one), []);
  assert.deepEqual(validate([one, { ...one, name: 'b' }]), []);
  assert.deepEqual(validate([one, { ...one, numberOfPartitions: 0 }]), ['/1/numberOfPartitions minimum', '/ if']);
  assert.equal(maxTopicsPerRequest, 1000);
  assert.deepEqual(violationsOf(topicListSchema)(Array.from({ length: 1001 }, () => one)), ['/ maxItems']);
  assert.deepEqual(violationsOf(topicParams)({ name: 'a' }), []);
  assert.deepEqual(violationsOf(consumeQuery)({ index: 3 }), []);
  assert.deepEqual(violationsOf(consumeQuery)({ index: -1 }), ['/index minimum']);
  assert.deepEqual(violationsOf(consumeQuery)({ index: 1.5 }), ['/index type']);
});

test('a produce body: messages with a value each, known serializers, headers of text', () => {
  const validate = violationsOf(produceBody);
  assert.deepEqual(
    validate({
      keySerializer: string,
      messages: [{ key: 'k', value: { a: 1 }, headers: { h: 'v' } }, { value: null }],
    }),
    [],
  );
  assert.deepEqual(validate({ valueSerializer: 'JsonSerializer', messages: [{ key: 'k' }] }).sort(), [
    '/messages/0 required',
    '/valueSerializer enum',
  ]);
  assert.deepEqual(validate({ messages: [{ value: 1, header: {} }] }), ['/messages/0 additionalProperties']);
  assert.deepEqual(validate({ messages: [{ value: 1, headers: { h: 1 } }] }), ['/messages/0/headers/h type']);
  assert.deepEqual(validate({}), ['/ required']);
});

test("a consume body: nothing required, the maxima are the node's settings", () => {
  const validate = violationsOf(consumeBody({ maxEvents: 500, maxTimeoutSeconds: 30 }));
  assert.deepEqual(validate({}), []);
  assert.deepEqual(
    validate({
      keyDeserializer: longDeserializer,
      maxEvents: 500,
      maxTimeoutSeconds: 30,
      offset: 'latest',
      partition: 0,
    }),
    [],
  );
  assert.deepEqual(validate({ startOffset: 5, startTimestamp: 1700000000000 }), []);
  assert.deepEqual(validate({ maxEvents: 501, maxTimeoutSeconds: 0, offset: 'newest', startOffset: -1 }).sort(), [
    '/maxEvents maximum',
    '/maxTimeoutSeconds minimum',
    '/offset enum',
    '/startOffset minimum',
  ]);
  assert.deepEqual(validate({ maxEvent: 1 }), ['/ additionalProperties']);
  assert.deepEqual(consumeDefaults, { maxEvents: 1000, maxTimeoutSeconds: 60, offset: 'earliest' });
});

test('a topic body is the schema read as TypeScript: options may be null, their values any scalar', () => {
  type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
  const same = <_T extends true>() => true;
  assert.ok(same<Equal<TopicBody['options'], Record<string, string | number | boolean> | null | undefined>>());
  assert.ok(same<Equal<TopicBody['compact'], boolean | undefined>>());
  const body: TopicBody = { name: 'events', numberOfPartitions: 3, replicationFactor: 1 };
  assert.deepEqual(violationsOf(topicSpecSchema)(body), []);
});
