import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ProduceAcks, Producer } from '@platformatic/kafka';
import { createTopics } from '@weir/test-helpers/kafka';
import { kcatEndOffsets, kcatOffsetsAt } from '@weir/test-helpers/kcat';
import { testBootstrap } from '@weir/test-helpers/test-node';
import { uniqueTopic } from '@weir/test-helpers/topics';
import { RangeReader } from '../../src/backtests/range-reader.ts';

/**
 * A backtest's reader against the real broker: a time range resolved to the offsets kcat -Q gives,
 * the records of the ranges merged by timestamp (ties by partition, then offset), and no consumer
 * group joined.
 */
const topic = uniqueTopic('backtest-range');
const T = Date.UTC(2019, 2, 1);
let reader: RangeReader;

/** Partition p, record i: timestamp T + (3 i + p) s, so a merge by time interleaves the partitions. */
before(async () => {
  await createTopics([topic], 2);
  const producer = new Producer({ clientId: 'weir-range-test', bootstrapBrokers: [testBootstrap()], idempotent: true });
  try {
    const messages = [0, 1].flatMap((partition) =>
      Array.from({ length: 10 }, (_, i) => ({
        topic,
        partition,
        value: Buffer.from(JSON.stringify({ p: partition, i })),
        timestamp: BigInt(T + (3 * i + partition) * 1000),
      })),
    );
    await producer.send({ messages, acks: ProduceAcks.ALL });
  } finally {
    await producer.close();
  }
  reader = new RangeReader({
    clientId: 'weir-range-test',
    bootstrapBrokers: [testBootstrap()],
    groupId: 'weir-range-test-never-joined',
  });
});

after(async () => {
  await reader?.close();
});

test('a time range is the offsets kcat -Q gives for its start and for just after its end', async () => {
  const from = T + 6_000;
  const to = T + 16_000;
  const ranges = await reader.timeRange(topic, from, to);
  const [starts, ends] = [await kcatOffsetsAt(topic, 2, from), await kcatOffsetsAt(topic, 2, to + 1)];
  assert.deepEqual(
    ranges.map((r) => [r.partition, Number(r.start), Number(r.end)]),
    [
      [0, starts[0], ends[0]],
      [1, starts[1], ends[1]],
    ],
  );
  // both ends included: p0 i 2..5 (6, 9, 12, 15 s), p1 i 2..5 (7, 10, 13, 16 s)
  assert.deepEqual(
    ranges.map((r) => [Number(r.start), Number(r.end)]),
    [
      [2, 6],
      [2, 6],
    ],
  );
  const narrower = await reader.timeRange(topic, from, to - 1);
  assert.deepEqual(
    narrower.map((r) => [Number(r.start), Number(r.end)]),
    [
      [2, 6],
      [2, 5],
    ],
  );
  // a range after every record: empty on both partitions, at their ends
  const end = await kcatEndOffsets(topic, 2);
  const later = await reader.timeRange(topic, T + 3_600_000, T + 7_200_000);
  assert.deepEqual(
    later.map((r) => [Number(r.start), Number(r.end)]),
    end.map((e) => [e, e]),
  );
});

test('the records of the ranges, merged by timestamp across partitions; an aborted read stops', async () => {
  const ranges = await reader.timeRange(topic, T, T + 60_000);
  const seen: string[] = [];
  for await (const chunk of reader.read(topic, ranges, new AbortController().signal))
    for (const r of chunk) seen.push(`${r.partition}:${r.offset}:${Number(r.timestamp) - T}`);
  const expected = Array.from({ length: 20 }, (_, k) => {
    const i = Math.floor(k / 2);
    const p = k % 2;
    return `${p}:${i}:${(3 * i + p) * 1000}`;
  });
  assert.deepEqual(seen, expected);

  const stop = new AbortController();
  stop.abort();
  const none: unknown[] = [];
  for await (const chunk of reader.read(topic, ranges, stop.signal)) none.push(...chunk);
  assert.deepEqual(none, []);
});

test('the most recent records: each partition’s last ones merged by time, the newest kept, oldest first', async () => {
  const ranges = await reader.lastRanges(topic, 3);
  assert.deepEqual(
    ranges.map((r) => [r.partition, Number(r.start), Number(r.end)]),
    [
      [0, 7, 10],
      [1, 7, 10],
    ],
  );
  const brief = (records: { partition: number; offset: bigint }[]) => records.map((r) => `${r.partition}:${r.offset}`);
  // p0 i 9 at 27 s, p1 i 8 at 25 s and i 9 at 28 s
  assert.deepEqual(brief(await reader.recent(topic, 3, new AbortController().signal)), ['1:8', '0:9', '1:9']);
  // more than the topic holds: every record
  assert.equal((await reader.recent(topic, 50, new AbortController().signal)).length, 20);
});
