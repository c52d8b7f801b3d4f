import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ProduceAcks, Producer } from '@platformatic/kafka';
import { waitFor } from '@weir/test-helpers/engine';
import { kcatEndOffsets, kcatValues } from '@weir/test-helpers/kcat';
import { faultRun, startPair, waitForBoth } from '../helpers/node-pair.ts';
import { initAdmin, login, type NodeProcess } from '../helpers/node-process.ts';
import { testBootstrap } from '@weir/test-helpers/test-node';

/**
 * Issue 12, item 6, measured as the issue did: a 200,000-record stream over 4 input partitions
 * (null keys), nodes of 2 stream threads, at_least_once, every output record counted with kcat.
 * After a kill -9, duplicates may not exceed the records in flight: one batch (docs/engine.md:
 * batches of up to 2,000 records) per worker of the killed node. When a node joins, none.
 */
const records = 200_000;
const maxBatch = 2000;
const threadsPerNode = 2;

/** Writes the records of sequence numbers [from, from + count) over the 4 input partitions. */
async function writeBacklog(topic: string, from = 0, count = records): Promise<void> {
  const producer = new Producer({
    clientId: 'weir-fault-backlog',
    bootstrapBrokers: testBootstrap().split(','),
    retries: 20,
    retryDelay: 500,
  });
  try {
    for (let i = from; i < from + count; i += 5000) {
      const messages = Array.from({ length: Math.min(5000, from + count - i) }, (_, j) => ({
        topic,
        partition: (i + j) % 4,
        value: Buffer.from(`seq=${i + j} user=u${(i + j) % 97} action=login`),
      }));
      await producer.send({ messages, acks: ProduceAcks.ALL });
    }
  } finally {
    await producer.close();
  }
}

async function configurePassthrough(node: NodeProcess, token: string, input: string, output: string): Promise<void> {
  const calls: [string, unknown][] = [
    ['/api/tasks', { id: 1, name: 'parse', description: '', function: 'PARSE_KV', definition: { keepRaw: false } }],
    ['/api/pipelines', { id: 1, name: 'parse', description: '', tasks: [1] }],
    [
      '/api/topologies',
      {
        id: 1,
        name: 'flow',
        description: '',
        pipelines: [1],
        enabled: true,
        group: 'default',
        input: { name: input },
        output: [{ name: output }],
      },
    ],
  ];
  for (const [p, body] of calls) {
    const res = await node.call('POST', p, { token, body });
    assert.equal(res.status, 201, `${p}: ${res.text}`);
  }
}

/** A fault run of these tests: at_least_once, an output topic of 2 partitions. */
const passthroughRun = (label: string) =>
  ({ label, guarantee: 'at_least_once', topic: label, outputPartitions: 2 }) as const;

function tally(values: string[]): { distinct: number; duplicates: number } {
  const seen = new Set<number>();
  let duplicates = 0;
  for (const v of values) {
    const seq = Number((JSON.parse(v) as { seq: unknown }).seq);
    if (seen.has(seq)) duplicates++;
    else seen.add(seq);
  }
  return { distinct: seen.size, duplicates };
}

const outputRecords = async (topic: string) => (await kcatEndOffsets(topic, 2)).reduce((a, b) => a + b, 0);

/** Waits until every one of `expected` input records is on the output (counted with kcat), then 3 s more for late duplicates. */
async function countOutput(
  topic: string,
  logs: () => string,
  expected = records,
): Promise<{ distinct: number; duplicates: number; total: number }> {
  await waitFor(
    'every record on the output',
    async () => {
      if ((await outputRecords(topic)) < expected) return undefined;
      return tally(await kcatValues(topic)).distinct === expected;
    },
    300_000,
  ).catch(async (err: Error) => {
    throw new Error(`${err.message}: ${JSON.stringify(tally(await kcatValues(topic)))}\nlogs:\n${logs()}`);
  });
  await new Promise((r) => setTimeout(r, 3000));
  const values = await kcatValues(topic);
  return { ...tally(values), total: values.length };
}

describe('duplicates under at_least_once, counted with kcat', { concurrency: false }, () => {
  test(
    'kill -9 of one of two nodes at 20% of a 200,000-record stream: nothing lost, duplicates at most one batch per worker of the killed node',
    { timeout: 600_000 },
    async (t) => {
      await faultRun(passthroughRun('dup-kill'), async (run) => {
        const { input, output } = run;
        const { a, b } = await startPair(run, (node, token) => configurePassthrough(node, token, input, output));
        const writing = writeBacklog(input);
        await waitFor(
          '20% of the stream on the output',
          async () => (await outputRecords(output)) >= records / 5,
          300_000,
        );
        const killedAt = Date.now();
        await b.kill();
        const outAtKill = await outputRecords(output);
        await writing;
        const counts = await countOutput(output, () => a.output);
        const bound = threadsPerNode * maxBatch;
        t.diagnostic(
          `kill -9 at ${outAtKill} of ${records} output records: ${counts.total} output records, ${counts.distinct} distinct, ` +
            `${counts.duplicates} duplicates (bound ${bound}); all on the output ${Date.now() - killedAt - 3000} ms after the kill`,
        );
        assert.equal(counts.distinct, records, 'no record is lost');
        assert.ok(
          counts.duplicates <= bound,
          `${counts.duplicates} duplicates after kill -9, more than one batch per worker of the killed node (${bound})`,
        );
      });
    },
  );

  test(
    'a second node joins while the first works through a 200,000-record backlog: no duplicate',
    { timeout: 600_000 },
    async (t) => {
      await faultRun(passthroughRun('dup-join'), async (run) => {
        const { input, output } = run;
        await writeBacklog(input);
        const a = await run.startNode();
        // The second node's process is up from the start; its engine starts (joins the group) later.
        const b = await run.startNode({ 'weir.engine.autostart': 'false' });
        const token = await initAdmin(a);
        await configurePassthrough(a, token, input, output);
        await waitFor(
          '1% of the backlog on the output',
          async () => (await outputRecords(output)) >= records / 100,
          300_000,
        );
        const outAtJoin = await outputRecords(output);
        const started = await b.call('POST', '/api/engine/start', { token: await login(b) });
        assert.equal(started.status, 200, started.text);
        // On a fast machine the first node can finish the backlog before the second one holds
        // partitions: more records go out, 5,000 every 500 ms, until two slices after the join, so
        // the join always happens while the stream runs.
        let written = records;
        let joined = false;
        const writing = (async () => {
          for (let after = 0; after < 2; after += joined ? 1 : 0) {
            await writeBacklog(input, written, 5000);
            written += 5000;
            await new Promise((r) => setTimeout(r, 500));
          }
        })();
        await waitForBoth(run, a, b).finally(() => (joined = true));
        const outAtRebalance = await outputRecords(output);
        await writing;
        const counts = await countOutput(output, () => `${a.output}\n${b.output}`, written);
        t.diagnostic(
          `a node joined at ${outAtJoin} of ${records} backlog records (both held partitions at ${outAtRebalance} output records; ` +
            `${written - records} more written while it joined): ${counts.total} output records, ${counts.distinct} distinct, ${counts.duplicates} duplicates`,
        );
        assert.equal(counts.distinct, written, 'no record is lost');
        assert.equal(counts.duplicates, 0, 'a node joining repeats nothing');
      });
    },
  );
});
