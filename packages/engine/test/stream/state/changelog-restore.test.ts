import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Consumer } from '@platformatic/kafka';
import { readChangelog } from '../../../src/stream/state/changelog-restore.ts';

type Batch = { firstOffset: bigint; lastOffsetDelta: number; attributes: number; records: unknown[] };
const batch = (first: number, keys: (string | null)[], attributes = 0): Batch => ({
  firstOffset: BigInt(first),
  lastOffsetDelta: keys.length - 1,
  attributes,
  records: keys.map((k, i) => ({
    offsetDelta: i,
    attributes: 0,
    key: k === null ? undefined : Buffer.from(k),
    value: k === null ? undefined : Buffer.from(`v-${k}`),
  })),
});

/** A consumer over one changelog partition: log start and end, and the batches each fetch returns. */
function consumer(start: bigint, end: bigint, fetches: (Batch[] | { errorCode: number })[], leader: number | null = 1) {
  const asked: bigint[] = [];
  const c = {
    topics: { trackAll: () => {} },
    listOffsets: (o: { timestamp?: bigint }) =>
      Promise.resolve(new Map([['chg', o.timestamp === -2n ? [start] : [end]]])),
    metadata: () =>
      Promise.resolve({ topics: new Map([['chg', { id: 'id', partitions: [{ leader: leader ?? undefined }] }]]) }),
    fetch: (o: { topics: { partitions: { fetchOffset: bigint }[] }[] }) => {
      asked.push(o.topics[0]!.partitions[0]!.fetchOffset);
      const next = fetches.shift() ?? [];
      const partition = Array.isArray(next)
        ? { partitionIndex: 0, errorCode: 0, records: next }
        : { partitionIndex: 0, errorCode: next.errorCode };
      return Promise.resolve({ responses: [{ partitions: [partition] }] });
    },
  };
  return { consumer: c as unknown as Consumer<Buffer, Buffer, Buffer, Buffer>, asked };
}

test('every record from the log start to the end is applied, in order, over as many fetches as it takes', async () => {
  const { consumer: c, asked } = consumer(2n, 6n, [[batch(2, ['a', 'b'])], [batch(4, ['c', null, 'after-end'])]]);
  const applied: string[] = [];
  const n = await readChangelog(c, 'chg', 0, false, (key, value) => applied.push(`${key}=${value}`));
  assert.deepEqual(applied, ['a=v-a', 'b=v-b', 'c=v-c']);
  assert.equal(n, 3);
  assert.deepEqual(asked, [2n, 4n]);
});

test('an empty changelog is read without a fetch; a fetch error or a missing leader fails the restore', async () => {
  assert.equal(await readChangelog(consumer(0n, 0n, []).consumer, 'chg', 0, true, () => {}), 0);
  await assert.rejects(
    readChangelog(consumer(0n, 3n, [{ errorCode: 6 }]).consumer, 'chg', 0, false, () => {}),
    /restoring chg-0 failed with Kafka error code 6/,
  );
  await assert.rejects(
    readChangelog(consumer(0n, 3n, [], null).consumer, 'chg', 0, false, () => {}),
    /changelog chg has no leader for partition 0/,
  );
});
