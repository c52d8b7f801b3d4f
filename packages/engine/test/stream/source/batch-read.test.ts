import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import type { MessagesStream } from '@platformatic/kafka';
import type { FetchedRecord } from '../../../src/stream/records.ts';
import { readBatch } from '../../../src/stream/source/batch-read.ts';
import { PartitionQueues } from '../../../src/stream/source/partition-queues.ts';
import { Wakeup } from '../../../src/stream/wakeup.ts';

type Stream = MessagesStream<Buffer, Buffer, Buffer, Buffer>;
const stream = () => new Readable({ objectMode: true, read: () => {} });
const record = (partition: number, offset: number) => ({ topic: 't', partition, offset: BigInt(offset) });
const offsets = (batch: readonly FetchedRecord[]) => batch.map((r) => `${r.partition}/${r.offset}`);

test('buffered records are taken fairly, up to max; twice max wait in the queues', async () => {
  const s = stream();
  for (let i = 0; i < 10; i++) s.push(record(i % 2, i));
  const queues = new PartitionQueues<FetchedRecord>();
  const batch = await readBatch(s as unknown as Stream, queues, 2, new Wakeup());
  assert.deepEqual(offsets(batch), ['0/0', '1/1']);
  assert.equal(queues.size, 2, 'at most 2 × max read from the stream');
});

test('a batch takes at once what the size function allows for the records waiting, at most max', async () => {
  const s = stream();
  for (let i = 0; i < 10; i++) s.push(record(i % 2, i));
  const queues = new PartitionQueues<FetchedRecord>();
  const seen: number[] = [];
  const size = (queued: number) => (seen.push(queued), 3);
  assert.deepEqual(offsets(await readBatch(s as unknown as Stream, queues, 8, new Wakeup(), size)), [
    '0/0',
    '1/1',
    '0/2',
  ]);
  assert.deepEqual(seen, [10], 'the size function sees the records waiting');
  const all = await readBatch(s as unknown as Stream, queues, 2, new Wakeup(), () => 50);
  assert.equal(all.length, 2, 'never more than max');
});

test('with nothing buffered: the first records that arrive, or an empty batch after a second or at a wake', async () => {
  const s = stream();
  const wakeup = new Wakeup();
  const queues = new PartitionQueues<FetchedRecord>();
  const waiting = readBatch(s as unknown as Stream, queues, 5, wakeup);
  setTimeout(() => s.push(record(0, 7)), 20);
  assert.deepEqual(offsets(await waiting), ['0/7']);
  let started = performance.now();
  assert.deepEqual(await readBatch(s as unknown as Stream, queues, 5, wakeup), []);
  assert.ok(performance.now() - started >= 900);
  started = performance.now();
  const woken = readBatch(s as unknown as Stream, queues, 5, wakeup);
  wakeup.wake();
  assert.deepEqual(await woken, []);
  assert.ok(performance.now() - started < 500);
  assert.equal(s.listenerCount('readable'), 0, 'its listeners are removed');
});

test("the stream's error rejects the wait; its close ends it empty", async () => {
  const queues = new PartitionQueues<FetchedRecord>();
  const failing = stream();
  const failed = readBatch(failing as unknown as Stream, queues, 5, new Wakeup());
  failing.destroy(new Error('fetch failed'));
  await assert.rejects(failed, /fetch failed/);
  const closing = stream();
  const closed = readBatch(closing as unknown as Stream, queues, 5, new Wakeup());
  closing.destroy();
  assert.deepEqual(await closed, []);
});
