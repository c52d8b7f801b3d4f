import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FromSchema } from '../src/from-schema.ts';
import {
  addPartitionsBody,
  maxPartitionsAdded,
  maxPartitionsByApi,
  purgeBody,
  purgeResult,
  purgeResultSchema,
  topicPartitions,
  topicPartitionsSchema,
  topicSettings,
  topicSettingsBody,
  topicSettingsSchema,
  type PurgeRequest,
  type TopicPartitions,
  type TopicSetting,
} from '../src/topic-details.ts';
import { violationsOf } from './helpers/ajv.ts';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<_T extends true>(): void {}

const partitions: TopicPartitions = {
  name: 'events',
  messages: 10,
  sizeBytes: 2048,
  partitions: [
    {
      partition: 0,
      leader: 1,
      replicas: [1],
      inSyncReplicas: [1],
      lowOffset: 2,
      highOffset: 12,
      messages: 10,
      sizeBytes: 2048,
    },
  ],
};

test('the answers: every field required in the full schema, and what the route declares accepts a real answer', () => {
  assert.deepEqual(violationsOf(topicPartitionsSchema)(partitions), []);
  assert.deepEqual(violationsOf(topicPartitions)(partitions), []);
  assert.deepEqual(violationsOf(topicPartitionsSchema)({ name: 'events' }), ['/ required', '/ required', '/ required']);
  const setting: TopicSetting = {
    name: 'retention.ms',
    value: null,
    source: 'DEFAULT_CONFIG',
    changed: false,
    readOnly: false,
    sensitive: true,
  };
  assert.deepEqual(violationsOf(topicSettingsSchema)({ name: 'events', settings: [setting] }), []);
  assert.deepEqual(violationsOf(topicSettings)({ name: 'events', settings: [{ ...setting, value: '1000' }] }), []);
  assert.deepEqual(
    violationsOf(purgeResultSchema)({ name: 'events', partitions: [{ partition: 0, lowOffset: 5 }] }),
    [],
  );
  assert.deepEqual(violationsOf(purgeResult)({ name: 'events', partitions: [{ partition: '0' }] }), [
    '/partitions/0/partition type',
  ]);
});

test('the types are the schemas read as TypeScript (a setting value may be null)', () => {
  expectType<Equal<TopicSetting['value'], string | null>>();
  expectType<Equal<TopicPartitions['partitions'][number]['replicas'], number[]>>();
  expectType<Equal<FromSchema<typeof topicSettingsBody>, { set?: Record<string, string>; reset?: string[] }>>();
  // a purge names offsets or a time
  const byOffsets: PurgeRequest = { confirm: 'events', offsets: { '0': 5 } };
  const byTime: PurgeRequest = { confirm: 'events', beforeTimestamp: 1 };
  assert.ok(byOffsets && byTime);
});

test('the bodies: settings to set and reset, a partition count within the API limit, a typed confirmation', () => {
  assert.deepEqual(violationsOf(topicSettingsBody)({ set: { 'retention.ms': '1000' }, reset: ['cleanup.policy'] }), []);
  assert.deepEqual(violationsOf(topicSettingsBody)({ set: { 'retention.ms': 1000 } }), ['/set/retention.ms type']);
  assert.deepEqual(violationsOf(addPartitionsBody)({ count: maxPartitionsByApi }), []);
  assert.deepEqual(violationsOf(addPartitionsBody)({ count: maxPartitionsByApi + 1 }), ['/count maximum']);
  assert.deepEqual(violationsOf(addPartitionsBody)({}), ['/ required']);
  assert.ok(maxPartitionsAdded < maxPartitionsByApi);
  assert.deepEqual(violationsOf(purgeBody)({ confirm: 'events', offsets: { '0': 5 } }), []);
  assert.deepEqual(violationsOf(purgeBody)({ confirm: 'events', offsets: { '0': -1 } }), ['/offsets/0 minimum']);
  assert.deepEqual(violationsOf(purgeBody)({ offsets: {} }), ['/ required']);
});
