import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import {
  Admin,
  ConfigResourceTypes,
  IncrementalAlterConfigOperationTypes,
  ProduceAcks,
  Producer,
} from '@platformatic/kafka';
import { freePort } from '../../src/broker/ports.ts';
import { isolatedEngine, waitFor } from '@weir/test-helpers/engine';
import { consume, createTopics } from '@weir/test-helpers/kafka';
import { initAdmin, NodeProcess } from '../helpers/node-process.ts';
import { testBootstrap } from '@weir/test-helpers/test-node';
import { uniqueTopic } from '@weir/test-helpers/topics';

/**
 * Input topics whose retention deletes records before Weir reads them (docs/engine.md → Retention of
 * input topics), on a node in its own process (its log is what an operator reads): records older
 * than half the topic's retention.ms are reported once (RECORDS_NEAR_RETENTION), and records the
 * broker deleted unread (the log start offset moved past the committed offset: DeleteRecords does
 * what the retention check does) are counted and reported once (RECORDS_DELETED_UNREAD), through
 * `GET /api/engine/warnings`, the node's log and `/metrics`.
 */

const day = 86_400_000;
/** 13 hours old: past half of a one-day retention, not yet deletable (the broker's own check cannot interfere). */
const age = 13 * 3_600_000;

interface Warning {
  kind: string;
  topic: string;
  topologies: number[];
  message: string;
  fix: string;
  since: string;
}

async function produceAged(topic: string, from: number, count: number): Promise<void> {
  const producer = new Producer({ clientId: 'weir-test-producer', bootstrapBrokers: [testBootstrap()] });
  try {
    const timestamp = BigInt(Date.now() - age);
    await producer.send({
      messages: Array.from({ length: count }, (_, i) => ({
        topic,
        value: Buffer.from(`seq=${from + i} user=u${from + i}`),
        timestamp,
      })),
      acks: ProduceAcks.ALL,
    });
  } finally {
    await producer.close();
  }
}

/** Moves the partition's log start offset to `offset`, as retention deleting old segments does. */
async function deleteBefore(topic: string, offset: bigint): Promise<void> {
  const admin = new Admin({ clientId: 'weir-test-admin', bootstrapBrokers: [testBootstrap()] });
  try {
    await admin.deleteRecords({ topics: [{ name: topic, partitions: [{ partition: 0, offset }] }] });
  } finally {
    await admin.close();
  }
}

function metric(port: number, name: string, topic: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/metrics' }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          const line = body.split('\n').find((l) => l.startsWith(`${name}{topic="${topic}"} `));
          resolve(line === undefined ? undefined : Number(line.split(' ')[1]));
        });
      })
      .on('error', reject);
  });
}

describe('the stream engine: input topics whose retention deletes records before they are read', () => {
  const node = new NodeProcess();
  const input = uniqueTopic('ret-in');
  const output = uniqueTopic('ret-out');
  let token: string;
  let metricsPort: number;

  const warnings = async (): Promise<Warning[]> => {
    const res = await node.call('GET', '/api/engine/warnings', { token });
    assert.equal(res.status, 200, res.text);
    return (res.body as { warnings: Warning[] }).warnings;
  };
  const logLines = (kind: string) =>
    node.output.split('\n').filter((l) => l.includes(`${kind}: `) && l.includes(input)).length;
  const fix = (then: string) =>
    `Set retention.ms=-1 on topic ${input} (or a retention longer than the age of the data): ` +
    `kafka-configs.sh --bootstrap-server <broker> --alter --entity-type topics --entity-name ${input} --add-config retention.ms=-1${then}. ` +
    `New topics for replays: create them with retention.ms=-1 (POST /api/topics with "options": {"retention.ms": "-1"}).`;
  const restartEngine = async () => {
    assert.equal((await node.call('POST', '/api/engine/stop', { token })).status, 200);
    return async () => {
      assert.equal((await node.call('POST', '/api/engine/start', { token })).status, 200);
      await node.waitRunning(token);
    };
  };

  before(async () => {
    metricsPort = await freePort();
    await node.configure({
      ...isolatedEngine('retention'),
      'num.stream.threads': '1',
      'weir.metrics.port': String(metricsPort),
    });
    await node.start();
    token = await initAdmin(node);
    await createTopics([output]);
    await createTopics([input], 1, [{ name: 'retention.ms', value: String(day) }]);
    const calls: [string, unknown][] = [
      ['/api/tasks', { id: 1, name: 'parse', description: '', function: 'PARSE_KV', definition: {} }],
      ['/api/pipelines', { id: 1, name: 'parse', description: '', tasks: [1] }],
      [
        '/api/topologies',
        {
          id: 7,
          name: 'replay',
          description: '',
          pipelines: [1],
          enabled: true,
          input: { name: input },
          output: [{ name: output }],
        },
      ],
    ];
    for (const [p, body] of calls) {
      const res = await node.call('POST', p, { token, body });
      assert.equal(res.status, 201, res.text);
    }
    await node.waitRunning(token);
  });
  after(() => node.stop());

  test('a record older than half the retention: one warning with the fix, one log line', async () => {
    assert.deepEqual(await warnings(), []);
    await produceAged(input, 0, 5);
    const shown = await waitFor('the warning', async () => {
      const w = await warnings();
      return w.length > 0 && w;
    });
    assert.equal(shown.length, 1);
    const [w] = shown;
    assert.match(w!.since, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.match(
      w!.message,
      new RegExp(
        `^Topic ${input} keeps records 24 h \\(retention\\.ms=86400000\\), and Weir reads records 13 h old \\(${input}/0 offset 0, timestamp \\S+\\): ` +
          'records that old are deleted within 11 h, read or not, so records not read yet can vanish without being processed\\.$',
      ),
    );
    assert.deepEqual(
      { ...w, since: undefined, message: undefined },
      {
        kind: 'RECORDS_NEAR_RETENTION',
        topic: input,
        topologies: [7],
        message: undefined,
        fix: fix(''),
        since: undefined,
      },
    );
    assert.equal((await consume(output, 5)).length, 5);
    await waitFor(
      'the metric',
      async () => (await metric(metricsPort, 'weir_input_records_near_retention_total', input)) === 5,
    );
    await produceAged(input, 5, 5);
    assert.equal((await consume(output, 10)).length, 10);
    assert.equal(logLines('RECORDS_NEAR_RETENTION'), 1, node.output);
    assert.equal((await warnings()).length, 1);
  });

  test('records deleted before they were read (log start past the committed offset): counted, one warning', async () => {
    const start = await restartEngine();
    assert.deepEqual(await warnings(), [], 'a stopped engine has no warnings');
    // committed: 10. Offsets 10-19 written, 10-13 deleted unread while the engine is stopped.
    await produceAged(input, 10, 10);
    await deleteBefore(input, 14n);
    await start();
    const output16 = await consume(output, 16);
    assert.deepEqual(
      output16.map((r) => JSON.parse(r.value.toString()).seq as number),
      [...Array.from({ length: 10 }, (_, i) => i), ...Array.from({ length: 6 }, (_, i) => 14 + i)],
    );
    const deleted = await waitFor('the deleted-records warning', async () =>
      (await warnings()).find((w) => w.kind === 'RECORDS_DELETED_UNREAD'),
    );
    assert.deepEqual(
      { ...deleted, since: undefined },
      {
        kind: 'RECORDS_DELETED_UNREAD',
        topic: input,
        topologies: [7],
        message:
          `4 record(s) of ${input}/0 (offsets 10 to 13) were deleted by the broker before Weir read them: ` +
          `the partition now starts at offset 14, Weir's next offset was 10. The topic's retention ` +
          `(retention.ms=86400000, retention.bytes=-1, cleanup.policy deletes) deleted them; Weir cannot process what the broker deleted.`,
        fix: fix(', then produce the deleted records again'),
        since: undefined,
      },
    );
    await waitFor(
      'the metric',
      async () => (await metric(metricsPort, 'weir_input_records_deleted_unread_total', input)) === 4,
    );
    assert.equal(logLines('RECORDS_DELETED_UNREAD'), 1, node.output);
    // the engine was restarted: its warnings start over, each logged once per run
    assert.equal(logLines('RECORDS_NEAR_RETENTION'), 2, node.output);
  });

  test('the tail of a partition deleted unread (no record after it) is found by the periodic look', async () => {
    const start = await restartEngine();
    // committed: 20. Offsets 20-22 written and deleted before the engine reads them; nothing follows.
    await produceAged(input, 20, 3);
    await deleteBefore(input, 23n);
    await start();
    const deleted = await waitFor(
      'the deleted-records warning',
      async () => (await warnings()).find((w) => w.kind === 'RECORDS_DELETED_UNREAD'),
      30_000,
    );
    assert.equal(
      deleted.message,
      `3 record(s) of ${input}/0 (offsets 20 to 22) were deleted by the broker before Weir read them: ` +
        `the partition now starts at offset 23, Weir's next offset was 20. The topic's retention ` +
        `(retention.ms=86400000, retention.bytes=-1, cleanup.policy deletes) deleted them; Weir cannot process what the broker deleted.`,
    );
    assert.deepEqual(
      (await warnings()).map((w) => w.kind),
      ['RECORDS_DELETED_UNREAD'],
    );
    await waitFor(
      'the metric',
      async () => (await metric(metricsPort, 'weir_input_records_deleted_unread_total', input)) === 7,
    );
  });

  test('a topic that no longer deletes by time loses its retention warning', async () => {
    await produceAged(input, 23, 1);
    await waitFor('the warning', async () => (await warnings()).some((w) => w.kind === 'RECORDS_NEAR_RETENTION'));
    const admin = new Admin({ clientId: 'weir-test-admin', bootstrapBrokers: [testBootstrap()] });
    try {
      await admin.incrementalAlterConfigs({
        resources: [
          {
            resourceType: ConfigResourceTypes.TOPIC,
            resourceName: input,
            configs: [{ name: 'retention.ms', configOperation: IncrementalAlterConfigOperationTypes.SET, value: '-1' }],
          },
        ],
      });
    } finally {
      await admin.close();
    }
    await waitFor(
      'the warning to go (settings are read again every 10 s)',
      async () => !(await warnings()).some((w) => w.kind === 'RECORDS_NEAR_RETENTION'),
      20_000,
    );
  });
});
