import assert from 'node:assert/strict';
import { test } from 'node:test';
import { weirTopicNames, weirTopics } from '../../src/kafka/weir-topics.ts';
import { collectionOfKey, recordKey } from '../../src/store/kafka-store.ts';

test('the product topic names are exactly the weir_* names', () => {
  assert.deepEqual(Object.values(weirTopics).sort(), [
    'weir_alerts',
    'weir_lookups',
    'weir_nodes',
    'weir_notifiers',
    'weir_pipelines',
    'weir_rules',
    'weir_silences',
    'weir_tasks',
    'weir_topologies',
    'weir_users',
  ]);
  assert.equal(weirTopicNames('x').rules, 'x_rules');
});

test('users and meta records share weir_users without meeting', () => {
  assert.equal(recordKey('users', 'alice'), 'alice');
  assert.equal(recordKey('meta', 'token-secret'), 'meta:token-secret');
  assert.deepEqual(collectionOfKey('users', 'alice'), ['users', 'alice']);
  assert.deepEqual(collectionOfKey('users', 'meta:token-secret'), ['meta', 'token-secret']);
  assert.deepEqual(collectionOfKey('rules', 'meta:x'), ['rules', 'meta:x']);
  assert.deepEqual(collectionOfKey('tasks', '7'), ['tasks', '7']);
});
