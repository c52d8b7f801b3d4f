import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Consumer, Producer } from '@platformatic/kafka';
import { readChangelog } from '../../src/stream/state/changelog-restore.ts';
import { consumeUntil, createTopics } from '@weir/test-helpers/kafka';
import { kcatValues } from '@weir/test-helpers/kcat';
import { testBootstrap } from '@weir/test-helpers/test-node';
import { uniqueTopic } from '@weir/test-helpers/topics';

/**
 * A read_committed reader must leave out the records of aborted transactions. The broker leaves them
 * in the fetch response (with the list of aborted transactions beside them); @platformatic/kafka does
 * not drop them itself, so Weir does (src/kafka/aborted-transactions.ts): its exactly_once_v2 stream
 * consumers, its changelog restore and the tests' committed-only reader. kcat (librdkafka) is the
 * independent reference.
 */
async function writeTransactions(topic: string): Promise<void> {
  const producer = new Producer({
    clientId: 'weir-test-tx',
    bootstrapBrokers: [testBootstrap()],
    idempotent: true,
    transactionalId: `weir-test-${topic}`,
    producerId: -1n,
    producerEpoch: -1,
  });
  try {
    const steps: [string[], boolean][] = [
      [['a1', 'a2'], true],
      [['b1', 'b2', 'b3'], false],
      [['c1'], true],
      [['d1'], false],
      [['e1', 'e2'], true],
    ];
    for (const [values, commit] of steps) {
      const tx = await producer.beginTransaction();
      await tx.send({ messages: values.map((v) => ({ topic, key: Buffer.from(v[0]!), value: Buffer.from(v) })) });
      if (commit) await tx.commit();
      else await tx.abort();
    }
  } finally {
    await producer.close();
  }
}

const committed = ['a1', 'a2', 'c1', 'e1', 'e2'];

describe('records of aborted transactions under read_committed', () => {
  test('a committed-only reader and the changelog restore see the committed records only, as kcat does', async () => {
    const topic = uniqueTopic('aborted');
    await createTopics([topic], 1);
    await writeTransactions(topic);

    assert.deepEqual(await kcatValues(topic, true), committed, 'kcat (read_committed)');
    const read = await consumeUntil(topic, (records) => records.length >= committed.length, 30_000, true);
    assert.deepEqual(
      read.map((r) => r.value.toString()),
      committed,
    );

    const consumer = new Consumer({
      clientId: 'weir-test-restore',
      groupId: `weir-test-restore-${topic}`,
      bootstrapBrokers: [testBootstrap()],
    });
    try {
      const restored: string[] = [];
      const n = await readChangelog(consumer, topic, 0, true, (_key, value) => restored.push(value!.toString()));
      assert.deepEqual(restored, committed);
      assert.equal(n, committed.length);
    } finally {
      await consumer.close(true);
    }
  });
});
