import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Admin, ConfigResourceTypes, Consumer, IncrementalAlterConfigOperationTypes } from '@platformatic/kafka';
import { RetentionCheck } from '../../../src/stream/source/retention-check.ts';
import { RetentionWatch, type RetentionWarning } from '../../../src/stream/source/retention-watch.ts';
import { produce } from '@weir/test-helpers/kafka';
import { testBootstrap } from '@weir/test-helpers/test-node';
import { uniqueTopic } from '@weir/test-helpers/topics';

/**
 * RetentionCheck's look-ups against the real broker: the topic's retention settings as the broker
 * reports them, and a skip of offsets confirmed as a loss by the partition's log start offset (moved
 * with DeleteRecords, as the broker's retention moves it), and an unread backlog estimated from the
 * partition's size on disk against the topic's retention.bytes. The periodic look at assigned
 * partitions needs a group member and is covered by test/integration/input-retention.test.ts.
 */
const topic = uniqueTopic('retention-check');
/** 4 KiB per partition, in segments of 1 MiB: ~20 KB produced stay (the active segment is never deleted). */
const sized = uniqueTopic('retention-check-bytes');
const day = 86_400_000;
let admin: Admin;
let consumer: Consumer<Buffer, Buffer, Buffer, Buffer>;

before(async () => {
  admin = new Admin({ clientId: 'weir-test-admin', bootstrapBrokers: [testBootstrap()] });
  consumer = new Consumer({
    clientId: 'weir-test-consumer',
    groupId: `weir-test-${randomBytes(6).toString('hex')}`,
    bootstrapBrokers: [testBootstrap()],
  });
  await admin.createTopics({
    topics: [topic],
    partitions: 1,
    replicas: 1,
    configs: [{ name: 'retention.ms', value: String(day) }],
  });
  await produce(
    topic,
    Array.from({ length: 10 }, (_, i) => `event ${i}`),
  );
  await admin.deleteRecords({ topics: [{ name: topic, partitions: [{ partition: 0, offset: 6n }] }] });
  await admin.createTopics({
    topics: [sized],
    partitions: 1,
    replicas: 1,
    configs: [
      { name: 'retention.bytes', value: '4096' },
      { name: 'segment.bytes', value: String(1024 * 1024) },
    ],
  });
  await produce(
    sized,
    Array.from({ length: 20 }, (_, i) => `${i} `.padEnd(1000, 'x')),
  );
});

after(async () => {
  await consumer.close();
  await admin.deleteTopics({ topics: [topic, sized] }).catch(() => undefined);
  await admin.close();
});

function checkOf(lost: [string, number][], changes: RetentionWarning[][], inputs = [topic]) {
  const watch = new RetentionWatch(
    () => [7],
    (w) => changes.push(w),
  );
  const check = new RetentionCheck(watch, {
    admin: () => admin,
    consumer: () => consumer,
    inputs: () => inputs,
    position: () => undefined,
    lost: (t, n) => lost.push([t, n]),
  });
  return { watch, check };
}

test('the settings read from the broker set the age past which records are near their retention', async () => {
  const { watch, check } = checkOf([], []);
  const now = Date.now();
  // before the settings are known, no age counts
  assert.equal(watch.record(topic, 0, 0n, BigInt(now - 13 * 3_600_000), now), false);
  await check.readSettings(true);
  assert.equal(watch.record(topic, 0, 1n, BigInt(now - 11 * 3_600_000), now), false, '11 h of a one-day retention');
  assert.equal(watch.record(topic, 0, 2n, BigInt(now - 13 * 3_600_000), now), true, '13 h: past half of it');
  assert.deepEqual(
    watch.warnings().map((w) => [w.kind, w.topic, w.topologies]),
    [['RECORDS_NEAR_RETENTION', topic, [7]]],
  );
});

test('a skip of offsets below the log start offset is a loss, counted once', async () => {
  const lost: [string, number][] = [];
  const changes: RetentionWarning[][] = [];
  const { watch, check } = checkOf(lost, changes);
  await check.readSettings(true);
  // the worker expected offset 2 and got 8: offsets 2 to 5 were deleted (the log starts at 6), 6 and 7 were not
  check.gap(topic, 0, 2n, 8n);
  for (let i = 0; i < 100 && lost.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(lost, [[topic, 4]]);
  const [warning] = watch.warnings();
  assert.equal(warning?.kind, 'RECORDS_DELETED_UNREAD');
  assert.match(warning.message, new RegExp(`^4 record\\(s\\) of ${topic}/0 \\(offsets 2 to 5\\) were deleted`));
  assert.match(warning.fix, /retention\.ms=-1/);
  assert.equal(changes.length, 1);

  // the same loss seen again (a later gap from the same place) is not counted twice
  check.gap(topic, 0, 2n, 9n);
  await new Promise((r) => setTimeout(r, 1200));
  await check.tick();
  assert.deepEqual(lost, [[topic, 4]]);
});

test('a skip of offsets above the log start offset (transaction markers, compaction) is no loss', async () => {
  const lost: [string, number][] = [];
  const { watch, check } = checkOf(lost, []);
  check.gap(topic, 0, 7n, 9n);
  await new Promise((r) => setTimeout(r, 1000));
  await check.tick();
  assert.deepEqual(lost, []);
  assert.deepEqual(watch.warnings(), []);
});

test("an unread backlog past half the topic's retention.bytes is warned about once, with the partition and the fix", async () => {
  const changes: RetentionWarning[][] = [];
  const { watch, check } = checkOf([], changes, [topic, sized]);
  // before the settings are known, nothing is looked up or warned about
  await check.backlog([{ topic: sized, partition: 0, next: 0n }]);
  assert.deepEqual(watch.warnings(), []);
  await check.readSettings(true);
  // read up to offset 19 of 20: about 1 KB unread, under half of 4 KiB
  await check.backlog([{ topic: sized, partition: 0, next: 19n }]);
  assert.deepEqual(watch.warnings(), []);
  // nothing read: all ~20 KB unread; the topic without a size limit is not looked at
  await check.backlog([
    { topic: sized, partition: 0, next: 0n },
    { topic, partition: 0, next: 0n },
  ]);
  const [warning, ...others] = watch.warnings();
  assert.deepEqual(others, []);
  assert.equal(warning?.kind, 'RECORDS_NEAR_RETENTION_BYTES');
  assert.equal(warning.topic, sized);
  assert.deepEqual(warning.topologies, [7]);
  const match = new RegExp(
    `^Topic ${sized} keeps at most 4\\.0 KiB per partition \\(retention\\.bytes=4096\\), and ${sized}/0 holds about ` +
      `(\\d+\\.\\d) KiB \\((\\d+) bytes, offsets 0 to 19\\) that Weir has not read yet`,
  ).exec(warning.message);
  assert.ok(match, warning.message);
  // 20 records of 1000 bytes, plus the batch and record headers
  assert.ok(Number(match[2]) >= 20_000 && Number(match[2]) < 24_000, match[2]);
  assert.match(warning.fix, new RegExp(`^Set retention\\.bytes=-1 on topic ${sized} `));
  assert.equal(changes.length, 1);
  await check.backlog([{ topic: sized, partition: 0, next: 0n }]);
  assert.equal(changes.length, 1, 'once');

  // the limit removed on the broker: the warning goes at the next read of the settings
  await admin.incrementalAlterConfigs({
    resources: [
      {
        resourceType: ConfigResourceTypes.TOPIC,
        resourceName: sized,
        configs: [{ name: 'retention.bytes', configOperation: IncrementalAlterConfigOperationTypes.SET, value: '-1' }],
      },
    ],
  });
  await check.readSettings(true);
  assert.deepEqual(watch.warnings(), []);
  assert.deepEqual(changes.at(-1), []);
});
