/**
 * bench/node-memory: the resident memory (VmRSS, all threads) of a real Weir node (local store,
 * 2 stream threads) configured through its API, on the embedded broker:
 *   A. the reference pipeline of bench/engine.ts with its 100 rules over N events (default 1,000,000);
 *   B. then 10,000 rules (APPLY_RULES lists all; the 9,900 added ones never match) and a
 *      1,000,000-row lookup table (a CSV upload) that the enrich task looks every event's source
 *      address up in, over another N events.
 * Sampled every 100 ms: before the load, its maximum, and at the end of each phase.
 * Run: `node_modules/.bin/node bench/node-memory.ts [events] [lookupRows]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Admin, ProduceAcks, Producer } from '@platformatic/kafka';
import { EmbeddedBroker } from '@weir/engine';
import { multipartBody } from '@weir/test-helpers/multipart';
import { call, initAdmin, signInAdmin, startServer, stopServer, type Server } from './api-node.ts';
import { residentMiB } from './engine-procs.ts';
import { committedSum } from './kafka-offsets.ts';
import { benchRules, line, pdlRules, referenceTasks } from './engine-workload.ts';

const events = Number(process.argv[2] ?? 1_000_000);
const lookupRows = Number(process.argv[3] ?? 1_000_000);
const S = 'org.apache.kafka.common.serialization.Serdes$StringSerde';
const group = 'weir-engine';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-bench-memory-'));
  const broker = new EmbeddedBroker({ dir: path.join(dir, 'broker'), internalPartitions: 1 });
  const bootstrap = await broker.start();
  // interrupted: the broker (a JVM of its own) must not outlive the bench
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void broker.stop().finally(() => process.exit(1)));
  const admin = new Admin({ clientId: 'bench-admin', bootstrapBrokers: [bootstrap] });
  let node: Server | undefined;
  try {
    await admin.createTopics({
      topics: ['mem-in-a', 'mem-in-b', 'mem-out-a', 'mem-out-b'],
      partitions: 2,
      replicas: 1,
    });
    const producer = new Producer({ clientId: 'bench-load', bootstrapBrokers: [bootstrap] });
    for (const topic of ['mem-in-a', 'mem-in-b']) {
      for (let i = 0; i < events; i += 10_000) {
        const messages = [];
        for (let j = i; j < Math.min(events, i + 10_000); j++)
          messages.push({ topic, key: Buffer.from(`k${j % 1000}`), value: Buffer.from(line(j)) });
        await producer.send({ messages, acks: ProduceAcks.LEADER });
      }
    }
    await producer.close();
    node = await startServer('node', { bootstrap, home: path.join(dir, 'home'), streamThreads: 2 });
    const url = node.url;
    const pid = node.child.pid!;
    const ok = async (what: string, res: Promise<{ status: number; text: string }>) => {
      const r = await res;
      if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.text.slice(0, 300)}`);
    };
    await initAdmin(url);
    const token = (await signInAdmin(url)).access_token;

    const committed = (topic: string) => committedSum(admin, group, topic);
    const phase = async (label: string, topic: string, configure: () => Promise<void>) => {
      const before = residentMiB(pid);
      const t = performance.now();
      await configure();
      const configured = residentMiB(pid);
      let max = configured;
      const samples: number[] = [];
      let next = 0.25;
      for (;;) {
        const done = await committed(topic);
        max = Math.max(max, residentMiB(pid));
        if (done >= next * events) {
          samples.push(residentMiB(pid));
          next += 0.25;
        }
        if (done >= events) break;
        await sleep(100);
      }
      console.log(
        `${label}: resident ${Math.round(before)} MiB before, ${Math.round(configured)} MiB once configured, max ${Math.round(max)} MiB; ` +
          `at 25/50/75/100 % of the input ${samples.map(Math.round).join(' / ')} MiB; ${Math.round(events / ((performance.now() - t) / 1000)).toLocaleString('en-US')} events/s`,
      );
    };

    const rules = pdlRules(benchRules(10_000));
    const task4 = (count: number) => ({
      id: 4,
      name: 'detect',
      function: 'APPLY_RULES',
      definition: { rules: rules.slice(0, count).map((r) => r.id) },
    });
    const topology = (id: number, input: string, output: string) => ({
      id,
      name: `memory ${id}`,
      pipelines: [1],
      enabled: true,
      group: 'default',
      input: { name: input, keySerde: S, valueSerde: S },
      output: [{ name: output, keySerde: S, valueSerde: S }],
    });

    console.log(
      `${events.toLocaleString('en-US')} events per phase; ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    await phase('A. reference pipeline, 100 rules', 'mem-in-a', async () => {
      await ok('rules', call(`${url}/api/bulk/rules`, 'POST', rules.slice(0, 100), token));
      await ok('tasks', call(`${url}/api/bulk/tasks`, 'POST', [...referenceTasks, task4(100)], token));
      await ok(
        'pipeline',
        call(`${url}/api/pipelines`, 'POST', { id: 1, name: 'reference', tasks: [1, 2, 3, 4] }, token),
      );
      await ok('topology', call(`${url}/api/topologies`, 'POST', topology(1, 'mem-in-a', 'mem-out-a'), token));
    });
    await phase(
      `B. 10,000 rules and a ${lookupRows.toLocaleString('en-US')}-row lookup used by every event`,
      'mem-in-b',
      async () => {
        const csv = ['ip,owner,site'];
        for (let i = 0; i < lookupRows; i++)
          csv.push(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255},team-${i % 100},site-${i % 7}`);
        const form = multipartBody([
          { name: 'id', value: 'assets' },
          { name: 'file', value: Buffer.from(csv.join('\n')), filename: 'assets.csv', contentType: 'text/csv' },
        ]);
        await ok('lookup', call(`${url}/api/lookups`, 'POST', form.body, token, form.contentType));
        for (let i = 100; i < rules.length; i += 2000)
          await ok('rules', call(`${url}/api/bulk/rules`, 'POST', rules.slice(i, i + 2000), token));
        const enrich = referenceTasks[2]!;
        await ok(
          'tasks',
          call(
            `${url}/api/bulk/tasks`,
            'POST',
            [
              {
                ...enrich,
                definition: {
                  pdl: `${(enrich.definition as { pdl: string }).pdl} | lookup assets ip AS src OUTPUT owner`,
                },
              },
              task4(10_000),
            ],
            token,
          ),
        );
        await ok(
          'topology a off',
          call(`${url}/api/topologies/1`, 'PUT', { ...topology(1, 'mem-in-a', 'mem-out-a'), enabled: false }, token),
        );
        await ok('topology b', call(`${url}/api/topologies`, 'POST', topology(2, 'mem-in-b', 'mem-out-b'), token));
      },
    );
  } finally {
    if (node) await stopServer(node);
    await admin.close();
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
