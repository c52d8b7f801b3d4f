import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Admin, Consumer } from '@platformatic/kafka';
import { RetentionCheck } from '../../../src/stream/source/retention-check.ts';
import { RetentionWatch, type RetentionWarning } from '../../../src/stream/source/retention-watch.ts';
import { produce } from '../../helpers/kafka.ts';
import { testBootstrap } from '../../helpers/test-node.ts';
import { uniqueTopic } from '../../helpers/topics.ts';

/**
 * RetentionCheck's look-ups against the real broker: the topic's retention settings as the broker
 * reports them, and a skip of offsets confirmed as a loss by the partition's log start offset (moved
 * with DeleteRecords, as the broker's retention moves it). The periodic look at assigned partitions
 * needs a group member and is covered by test/integration/input-retention.test.ts.
 */
const topic = uniqueTopic('retention-check');
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
});

after(async () => {
  await consumer.close();
  await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  await admin.close();
});

function checkOf(lost: [string, number][], changes: RetentionWarning[][]) {
  const watch = new RetentionWatch(
    () => [7],
    (w) => changes.push(w),
  );
  const check = new RetentionCheck(watch, {
    admin: () => admin,
    consumer: () => consumer,
    inputs: () => [topic],
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
