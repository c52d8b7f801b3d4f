import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Admin } from '@platformatic/kafka';
import { loadSettings } from '../../src/config/settings.ts';
import { weirTopicNames } from '../../src/kafka/weir-topics.ts';
import { KafkaConfigStore } from '../../src/store/kafka-store.ts';
import { storeModes, storeSettings } from '../helpers/store-modes.ts';
import { startTestNode, testBootstrap } from '@weir/test-helpers/test-node';
import { uniqueTopicPrefix } from '@weir/test-helpers/unique';

function settingsFor(prefix: string) {
  return loadSettings(undefined, {}).with({ 'bootstrap.servers': testBootstrap(), 'weir.topic.prefix': prefix });
}

async function eventually(check: () => boolean, ms: number): Promise<number> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - start;
}

test('kafka store: creates compacted topics, reads its own writes, shares them and survives a reopen', async () => {
  const prefix = uniqueTopicPrefix('store');
  const settings = settingsFor(prefix);
  const errors: string[] = [];
  const a = await KafkaConfigStore.open(settings, 'store-a', (e) => errors.push(e.message));
  const b = await KafkaConfigStore.open(settings, 'store-b', (e) => errors.push(e.message));
  try {
    const names = weirTopicNames(prefix);
    const admin = new Admin({ clientId: 'check', bootstrapBrokers: [testBootstrap()] });
    try {
      const topics = await admin.listTopics();
      for (const t of Object.values(names)) assert.ok(topics.includes(t), `${t} exists`);
      const configs = await admin.describeConfigs({
        resources: [
          { resourceType: 2, resourceName: names.tasks, configurationKeys: ['cleanup.policy', 'retention.bytes'] },
        ],
      });
      const values = Object.fromEntries(configs[0]!.configs.map((c) => [c.name, c.value]));
      assert.deepEqual(values, { 'cleanup.policy': 'compact', 'retention.bytes': '-1' });
    } finally {
      await admin.close();
    }

    const seen: string[] = [];
    b.onChange((collection, id, value) => seen.push(`${collection}/${id}=${JSON.stringify(value)}`));
    await a.put('tasks', '1', { id: 1, name: 'one' });
    assert.deepEqual(a.get('tasks', '1'), { id: 1, name: 'one' }, 'a write is readable on return');
    const took = await eventually(() => b.get('tasks', '1') !== undefined, 1000);
    assert.ok(took < 1000);

    await a.putMany('rules', [
      ['r1', { id: 'r1' }],
      ['r2', { id: 'r2' }],
    ]);
    assert.deepEqual(a.list('rules'), [{ id: 'r1' }, { id: 'r2' }]);
    assert.deepEqual(
      a.listJson('rules').map((bytes) => Buffer.from(bytes).toString('utf8')),
      ['{"id":"r1"}', '{"id":"r2"}'],
      'listJson: the records as JSON, in list order',
    );
    await a.put('meta', 'token-secret', { secret: 's' });
    await a.put('users', 'alice', { username: 'alice' });
    assert.deepEqual(a.list('users'), [{ username: 'alice' }], 'meta records are not users');
    assert.equal(await a.delete('rules', 'r1'), true);
    assert.equal(await a.delete('rules', 'r1'), false);
    assert.deepEqual(a.list('rules'), [{ id: 'r2' }]);
    await eventually(() => b.list('rules').length === 1, 1000);
    assert.ok(seen.includes('tasks/1={"id":1,"name":"one"}'));
    assert.ok(seen.includes('rules/r1=undefined'));
  } finally {
    await a.close();
    await b.close();
  }
  assert.deepEqual(errors, [], 'reading the topics never failed');
  const c = await KafkaConfigStore.open(settings, 'store-c');
  try {
    assert.deepEqual(c.get('tasks', '1'), { id: 1, name: 'one' });
    assert.deepEqual(c.list('rules'), [{ id: 'r2' }]);
    assert.deepEqual(c.get('meta', 'token-secret'), { secret: 's' });
    assert.deepEqual(c.list('users'), [{ username: 'alice' }]);
  } finally {
    await c.close();
  }
});

const version = (id: string, user: string, note: string) => ({
  id,
  time: 1000,
  user,
  action: 'update' as const,
  note,
  record: { id, by: user },
});

test('kafka store: versions are shared, numbered alike on every node, never collide, and survive a reopen', async () => {
  const prefix = uniqueTopicPrefix('versions');
  const settings = settingsFor(prefix);
  const a = await KafkaConfigStore.open(settings, 'versions-a');
  const b = await KafkaConfigStore.open(settings, 'versions-b');
  try {
    await a.put('rules', 'r', { id: 'r', by: 'a' }, { versions: [version('r', 'a', 'first')] });
    assert.deepEqual(a.versions('rules', 'r'), [{ ...version('r', 'a', 'first'), version: 1 }], 'read on return');
    await eventually(() => b.versions('rules', 'r').length === 1, 2000);
    // Both nodes change the same record at once, several times: every change is kept, numbered once.
    await Promise.all(
      [0, 1, 2].flatMap((i) => [
        a.put('rules', 'r', { id: 'r', by: 'a' }, { versions: [version('r', 'a', `a${i}`)] }),
        b.put('rules', 'r', { id: 'r', by: 'b' }, { versions: [version('r', 'b', `b${i}`)] }),
      ]),
    );
    await eventually(() => a.versions('rules', 'r').length === 7 && b.versions('rules', 'r').length === 7, 2000);
    assert.deepEqual(a.versions('rules', 'r'), b.versions('rules', 'r'), 'both nodes number them alike');
    assert.deepEqual(
      a.versions('rules', 'r').map((v) => v.version),
      [1, 2, 3, 4, 5, 6, 7],
    );
    assert.deepEqual(
      a
        .versions('rules', 'r')
        .map((v) => v.note)
        .sort(),
      ['a0', 'a1', 'a2', 'b0', 'b1', 'b2', 'first'],
    );
    assert.equal(
      await b.delete('rules', 'r', { versions: [{ id: 'r', time: 2000, user: 'b', action: 'delete' }] }),
      true,
    );
    await b.put('tasks', 'r', { id: 1 }, { versions: [version('r', 'b', 'a task')] });
  } finally {
    await a.close();
    await b.close();
  }
  const c = await KafkaConfigStore.open(settings, 'versions-c');
  try {
    const kept = c.versions('rules', 'r');
    assert.equal(kept.length, 8, 'a reopened store reads every version back');
    assert.deepEqual(kept.at(-1), { id: 'r', time: 2000, user: 'b', action: 'delete', version: 8 });
    assert.equal(c.get('rules', 'r'), undefined);
    assert.deepEqual(c.versions('tasks', 'r'), [{ ...version('r', 'b', 'a task'), version: 1 }]);
  } finally {
    await c.close();
  }
});

test('a node in local mode creates the alerts and alert triage topics; in kafka mode the configuration topics and the audit topic too', async () => {
  for (const mode of storeModes) {
    const settings = storeSettings(mode);
    const prefix = settings['weir.topic.prefix']!;
    const t = await startTestNode(settings);
    const admin = new Admin({ clientId: 'check', bootstrapBrokers: [testBootstrap()] });
    try {
      const ours = (await admin.listTopics()).filter((name) => name.startsWith(`${prefix}_`)).sort();
      // In kafka mode the audit trail has its own (time-retained) topic too (docs/security.md).
      const expected =
        mode === 'local'
          ? ['alert_triage', 'alerts']
          : [
              'alert_triage',
              'alerts',
              'audit',
              'lookups',
              'nodes',
              'notifiers',
              'pipelines',
              'rules',
              'silences',
              'tasks',
              'topologies',
              'users',
              'versions',
            ];
      assert.deepEqual(
        ours,
        expected.map((s) => `${prefix}_${s}`),
        mode,
      );
    } finally {
      await admin.close();
      await t.stop();
    }
  }
});
