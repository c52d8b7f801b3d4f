import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Admin } from '@platformatic/kafka';
import type { OutgoingRecord } from '../../../src/stream/records.ts';
import { BatchWriter } from '../../../src/stream/sink/batch-writer.ts';
import { SinkTopics } from '../../../src/stream/sink/sink-topics.ts';
import { createTopics } from '@weir/test-helpers/kafka';
import { kcatValues } from '@weir/test-helpers/kcat';
import { testBootstrap } from '@weir/test-helpers/test-node';
import { uniqueTopic } from '@weir/test-helpers/topics';

const record = (topic: string, value: string): OutgoingRecord => ({
  topic,
  partition: 0,
  value: Buffer.from(value),
  timestamp: BigInt(Date.UTC(2023, 0, 1)),
});

describe('BatchWriter against the test broker', () => {
  let admin: Admin;
  const logs: string[] = [];
  const topics = new SinkTopics(
    () => admin,
    (message) => logs.push(message),
  );
  const writerFor = (guarantee: 'at_least_once' | 'exactly_once_v2') =>
    new BatchWriter(
      {
        connection: { bootstrapBrokers: testBootstrap().split(',') },
        clientId: `weir-test-writer-${guarantee}`,
        guarantee,
        transactionalId: `${uniqueTopic('tx')}-${guarantee}`,
      },
      topics,
    );

  before(() => {
    admin = new Admin({ clientId: 'weir-test-writer-admin', bootstrapBrokers: testBootstrap().split(',') });
  });
  after(async () => {
    await admin.close();
  });

  test('at_least_once: the output reaches a topic it creates when missing (as kcat reads it)', async () => {
    const writer = writerFor('at_least_once');
    const out = uniqueTopic('writer-alos');
    try {
      await writer.open();
      assert.equal(
        await writer.write([record(out, 'a'), record(out, 'b')], new Map(), undefined, undefined),
        undefined,
      );
      assert.deepEqual(await kcatValues(out), ['a', 'b']);
      assert.ok(
        logs.some((l) => l.includes(out)),
        'the creation is logged',
      );
    } finally {
      await writer.close();
    }
  });

  test('at_least_once: a produce whose outputs fail writes none of its changelog records (the state never gets ahead of its alerts)', async () => {
    const writer = writerFor('at_least_once');
    // an output the broker refuses for good (larger than its topic allows), a changelog it would take
    const out = uniqueTopic('writer-refused');
    const changelog = uniqueTopic('writer-changelog');
    await createTopics([out], 1, [{ name: 'max.message.bytes', value: '1024' }]);
    await createTopics([changelog]);
    try {
      await writer.open();
      const tooLarge = { ...record(out, 'x'.repeat(4096)) };
      await assert.rejects(writer.produce([record(out, 'ok'), tooLarge], [record(changelog, 'counted')]));
      assert.deepEqual(await kcatValues(changelog), [], 'no changelog record without its outputs');
      // outputs acknowledged: then the changelog records, in order
      await writer.produce([record(out, 'a')], [record(changelog, 'c1'), record(changelog, 'c2')]);
      assert.deepEqual(await kcatValues(changelog), ['c1', 'c2']);
      assert.ok((await kcatValues(out)).includes('a'));
    } finally {
      await writer.close();
    }
  });

  test('exactly_once_v2: a batch is one committed transaction (a read_committed reader sees it)', async () => {
    const writer = writerFor('exactly_once_v2');
    const out = uniqueTopic('writer-eos');
    await createTopics([out]);
    try {
      await writer.open();
      await writer.write([record(out, 'x'), record(out, 'y')], new Map(), undefined, undefined);
      await writer.write([record(out, 'z')], new Map(), undefined, undefined);
      assert.deepEqual(await kcatValues(out, true), ['x', 'y', 'z']);
    } finally {
      await writer.close();
    }
  });
});
