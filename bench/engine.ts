/**
 * bench/engine: 1M events on the embedded Kafka broker through
 *   (a) the raw client loop (consume → produce the same bytes → commit; no processing),
 *   (b) a passthrough topology on Weir's stream worker,
 *   (c) the reference pipeline PARSE_KV → TIMESTAMP → PDL_EXPRESSION → APPLY_RULES with 100 rules,
 * in one run on one broker, each with its own consumer group and output topic. Two rounds of
 * a, b, c; each scenario's best round counts (the first round also warms the JIT). A run ends when
 * the group's committed offsets reach the input's end.
 * Run: `node_modules/.bin/node bench/engine.ts [events]` (default 1,000,000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Admin, Consumer, ProduceAcks, Producer, type Message } from '@platformatic/kafka';
import { EmbeddedBroker } from '../packages/engine/src/broker/embedded-broker.ts';
import type { ConfigSnapshot } from '../packages/engine/src/stream/config-snapshot.ts';
import { StreamWorker } from '../packages/engine/src/stream/stream-worker.ts';

const events = Number(process.argv[2] ?? 1_000_000);
const partitions = 2;
const string = 'org.apache.kafka.common.serialization.Serdes$StringSerde';
const users = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'root', 'svc-backup'];

function line(i: number): string {
  const user = users[i % users.length];
  const status = i % 10 === 0 ? 'failed' : 'ok';
  return `ts=2026-11-21T10:${String(Math.floor(i / 60000) % 60).padStart(2, '0')}:${String(Math.floor(i / 1000) % 60).padStart(2, '0')}.${String(i % 1000).padStart(3, '0')}Z ` +
    `user=${user} src=10.0.${i % 256}.${(i * 7) % 256} dst=10.1.0.${i % 50} action=login status=${status} EventID=${4624 + (i % 3)} bytes=${(i * 37) % 100000} process="C:\\Windows\\System32\\svc${i % 40}.exe"`;
}

/**
 * 100 Sigma-style rules: equality, wildcards, IN lists, contains, and one in ten with a regex.
 * Selective like real detections, though less: about 9 % of the events raise an alert.
 */
function rules(): ConfigSnapshot['rules'] {
  const out = [];
  for (let r = 0; r < 100; r++) {
    const kind = r % 10;
    const user = users[r % users.length];
    const pdl =
      kind === 0 ? `EventID=4625 AND user="${user}" AND process ~= "svc${r % 40}\\.exe$" AND status="failed"` :
      kind < 4 ? `EventID=${4624 + (r % 3)} AND user="${user}" AND status="failed" AND dst="10.1.0.${r % 50}"` :
      kind < 6 ? `user IN ["${user}", "nobody-${r}"] AND dst="10.1.0.${r % 50}" AND src="10.0.${r}.*"` :
      kind < 8 ? `process="*\\\\svc${r % 40}.exe" AND action="login" AND user="${user}" AND bytes > ${r * 900} AND status="failed"` :
      `src ?= "10.0.${r}." AND status="failed" AND user="${user}" AND EventID=4626`;
    out.push({ id: `r${r}`, name: `rule ${r}`, pdl, annotations: [`T${1000 + r}`], enabled: true });
  }
  return out;
}

function snapshot(kind: 'passthrough' | 'reference', input: string, output: string): ConfigSnapshot {
  const topology = { id: 1, name: kind, pipelines: kind === 'passthrough' ? [] : [1], enabled: true, group: 'default',
    input: { name: input, keySerde: string, valueSerde: string }, output: [{ name: output, keySerde: string, valueSerde: string }] };
  return {
    version: 1,
    topologies: [topology],
    pipelines: [{ id: 1, name: 'reference', tasks: [1, 2, 3, 4] }],
    tasks: [
      { id: 1, name: 'parse', function: 'PARSE_KV', definition: {} },
      { id: 2, name: 'time', function: 'TIMESTAMP', definition: { field: 'ts' } },
      { id: 3, name: 'enrich', function: 'PDL_EXPRESSION', definition: { pdl: 'eval severity=if(status="failed", "high", "low"), who=lower(user)' } },
      { id: 4, name: 'detect', function: 'APPLY_RULES', definition: { rules: rules().map((r) => r.id) } },
    ],
    rules: rules(),
    lookups: [],
  };
}

async function committed(admin: Admin, group: string, topic: string): Promise<number> {
  const [result] = await admin.listConsumerGroupOffsets({ groups: [{ groupId: group, topics: [{ name: topic, partitionIndexes: [...Array(partitions).keys()] }] }] as never });
  let sum = 0;
  for (const t of result?.topics ?? []) for (const p of t.partitions) if (p.committedOffset > 0n) sum += Number(p.committedOffset);
  return sum;
}

async function waitCommitted(admin: Admin, group: string, topic: string): Promise<void> {
  while ((await committed(admin, group, topic)) < events) await new Promise((r) => setTimeout(r, 100));
}

/** (a) The raw loop with the same client, batch size and commit rule as the stream worker. */
async function rawLoop(bootstrap: string, input: string, output: string, group: string): Promise<() => Promise<void>> {
  const consumer = new Consumer({ clientId: 'bench-raw', groupId: group, bootstrapBrokers: [bootstrap], maxWaitTime: 200, maxBytes: 16 * 1024 * 1024 });
  const producer = new Producer({ clientId: 'bench-raw', bootstrapBrokers: [bootstrap], idempotent: true, acks: ProduceAcks.ALL });
  const stream = await consumer.consume({ topics: [input], mode: 'committed', fallbackMode: 'earliest', autocommit: false, highWaterMark: 4096 });
  let running = true;
  const loop = (async () => {
    while (running) {
      const batch: Message<Buffer, Buffer, Buffer, Buffer>[] = [];
      let m;
      while (batch.length < 2000 && (m = stream.read()) !== null) batch.push(m as Message<Buffer, Buffer, Buffer, Buffer>);
      if (batch.length === 0) {
        await Promise.race([new Promise((r) => (stream as NodeJS.EventEmitter).once('readable', r)), new Promise((r) => setTimeout(r, 200))]);
        continue;
      }
      await producer.send({ messages: batch.map((b) => ({ topic: output, key: b.key, value: b.value, timestamp: b.timestamp })) });
      const last = new Map<string, Message<Buffer, Buffer, Buffer, Buffer>>();
      for (const b of batch) last.set(`${b.topic}:${b.partition}`, b);
      await Promise.all([...last.values()].map((b) => b.commit()));
    }
  })();
  stream.on('readable', () => {});
  return async () => {
    running = false;
    await loop;
    await stream.close();
    await consumer.close(true);
    await producer.close();
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-bench-engine-'));
  const broker = new EmbeddedBroker({ dir, internalPartitions: 1 });
  const bootstrap = await broker.start();
  const admin = new Admin({ clientId: 'bench-admin', bootstrapBrokers: [bootstrap] });
  try {
    const input = 'bench-in';
    await admin.createTopics({ topics: [input, 'out-a1', 'out-b1', 'out-c1', 'out-a2', 'out-b2', 'out-c2'], partitions, replicas: 1 });
    const producer = new Producer({ clientId: 'bench-load', bootstrapBrokers: [bootstrap] });
    let t = performance.now();
    for (let i = 0; i < events; i += 10_000) {
      const messages = [];
      for (let j = i; j < Math.min(events, i + 10_000); j++) messages.push({ topic: input, key: Buffer.from(`k${j % 1000}`), value: Buffer.from(line(j)) });
      await producer.send({ messages, acks: ProduceAcks.LEADER });
    }
    await producer.close();
    console.log(`loaded ${events} events in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    const results: Record<string, number> = {};
    const timeRaw = async (name: string, output: string) => {
      t = performance.now();
      const stop = await rawLoop(bootstrap, input, output, `bench-${name}`);
      await waitCommitted(admin, `bench-${name}`, input);
      results[name] = events / ((performance.now() - t) / 1000);
      await stop();
    };
    const timeWorker = async (name: string, kind: 'passthrough' | 'reference', output: string) => {
      const worker = new StreamWorker({
        index: 0, connection: { bootstrapBrokers: [bootstrap] }, clientId: `bench-${name}`, groupId: `bench-${name}`, group: 'default',
        guarantee: 'at_least_once', transactionalId: `bench-${name}`, alertsTopic: 'bench-alerts', onState: () => {},
        onLog: (level, message) => { if (level !== 'info') console.error(`[${name}] ${message}`); },
      });
      worker.configure(snapshot(kind, input, output));
      t = performance.now();
      worker.start();
      await waitCommitted(admin, `bench-${name}`, input);
      results[name] = events / ((performance.now() - t) / 1000);
      await worker.stop();
    };
    for (const round of [1, 2]) {
      await timeRaw(`a${round}`, `out-a${round}`);
      await timeWorker(`b${round}`, 'passthrough', `out-b${round}`);
      await timeWorker(`c${round}`, 'reference', `out-c${round}`);
    }
    const best = (k: string) => Math.max(results[`${k}1`]!, results[`${k}2`]!);
    const [a, b, c] = [best('a'), best('b'), best('c')];
    const f = (n: number) => `${Math.round(n).toLocaleString('en-US')} events/s`;
    const rounds = (k: string) => `${f(results[`${k}1`]!)} / ${f(results[`${k}2`]!)}`;
    console.log(`(a) raw client loop:        best ${f(a)}   (rounds: ${rounds('a')})`);
    console.log(`(b) passthrough topology:   best ${f(b)}   (rounds: ${rounds('b')})  b/a = ${(b / a).toFixed(2)}`);
    console.log(`(c) reference pipeline:     best ${f(c)}   (rounds: ${rounds('c')})  c/a = ${(c / a).toFixed(2)}`);
  } finally {
    await admin.close();
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
