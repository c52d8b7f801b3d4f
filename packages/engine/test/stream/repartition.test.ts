import assert from 'node:assert/strict';
import { test } from 'node:test';
import { repartitionRetentionMs, stageTopics } from '../../src/stream/repartition.ts';

test('topic names: application id, topology and task; unsafe characters replaced', () => {
  assert.deepEqual(stageTopics('weir-engine', { id: 3, name: 'auth logs/EU' }, 7), {
    repartition: 'weir-engine-auth_logs_EU-3-task7-repartition',
    changelog: 'weir-engine-auth_logs_EU-3-task7-changelog',
  });
});

test('repartition topics keep their records a week', () => {
  assert.equal(repartitionRetentionMs, 7 * 24 * 3600 * 1000);
});
