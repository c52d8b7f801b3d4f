/**
 * bench/engine.ts, part `sigma` (issue 24: "the SigmaHQ set in one APPLY_RULES task … through the
 * whole engine (topic in, alerts out) ≥ 30,000 events/s on 2 threads"): the SigmaHQ rules that
 * convert with evtx-json and N events of bench/sigma.ts's Windows-event corpus (bench/sigma-corpus.ts),
 * the events as JSON on a 2-partition input topic of the embedded broker, Weir's runner
 * (bench/engine-weir.ts, 2 stream worker threads) with the topology input → pipeline [one
 * APPLY_RULES task listing every rule, `matchAll`] → output. events/s from the first output to the
 * group's committed offsets at the input's end, CPU-s per 1M events of the runner's process, alerts
 * written to the alerts topic.
 *
 * The check: the rules compiled in this process and a RuleIndex over them find every (event, rule)
 * match of the same events (read back from their JSON text); the alerts topic must hold exactly
 * those pairs (its record key is the event's, its `_rule.id` the rule's), each at least once (at
 * least once: a batch read again after a rebalance writes its alerts again, with the same
 * `_alert.id`, so duplicates are counted and reported, not failed). A mismatch fails the bench.
 *
 * No Kafka Streams peer: there is no Kafka Streams Sigma engine to compare with (the reference
 * pipeline's plain-Java rules are 100 hand-made conditions, not a Sigma engine), so this part
 * prints Weir's figures against the issue's goal only. With them, the CPU the broker's JVM and the bench's
 * process spent over the same window, and the best rate the machine's cores allow at those costs per
 * event (cores ÷ the sum of the three CPU-s per event): the broker runs on the same cores.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Producer, ProduceAcks } from '@platformatic/kafka';
import { compile, RuleIndex } from '../packages/pdl/src/index.ts';
import type { ConfigSnapshot } from '../packages/engine/src/stream/config-snapshot.ts';
import type { PartContext } from './engine-part.ts';
import { startWeir } from './engine-procs.ts';
import { sigmaEvents, sigmaRules } from './sigma-corpus.ts';
import { kcatLineStream } from './kcat-lines.ts';

const stringSerde = 'org.apache.kafka.common.serialization.Serdes$StringSerde';
const threads = 2;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** (key, value) of every record of a topic, read with kcat one at a time (values are one-line JSON). */
async function* topicRecords(bootstrap: string, topic: string): AsyncGenerator<[string, string]> {
  for await (const l of kcatLineStream(bootstrap, topic, '%k\t%s\n')) {
    const tab = l.indexOf('\t');
    yield [l.slice(0, tab), l.slice(tab + 1)];
  }
}

/** The topology input → [APPLY_RULES of every rule, matchAll] → output, as Weir stores it. */
function sigmaSnapshot(input: string, output: string, pdls: readonly string[]): ConfigSnapshot {
  const rules = pdls.map((pdl, i) => ({
    id: `sigma-${i}`,
    name: `sigma ${i}`,
    pdl,
    annotations: [],
    enabled: true,
  }));
  return {
    version: 1,
    topologies: [
      {
        id: 1,
        name: 'sigma',
        pipelines: [1],
        enabled: true,
        group: 'default',
        input: { name: input, keySerde: stringSerde, valueSerde: stringSerde },
        output: [{ name: output, keySerde: stringSerde, valueSerde: stringSerde }],
      },
    ],
    pipelines: [{ id: 1, name: 'sigma', tasks: [1] }],
    tasks: [
      {
        id: 1,
        name: 'sigma',
        function: 'APPLY_RULES',
        definition: { rules: rules.map((r) => r.id), matchAll: true },
      },
    ],
    rules,
    lookups: [],
  } as unknown as ConfigSnapshot;
}

export async function sigmaPart(ctx: PartContext): Promise<void> {
  const { files, pdls } = sigmaRules();
  const compiled = pdls.map((p) => compile(p));
  const correlations = compiled.filter((c) => c.hasCorrelation).length;
  if (correlations > 0)
    throw new Error(
      `sigma: ${correlations} converted rules hold a correlation; the check below evaluates rules one event at a time`,
    );
  const texts = sigmaEvents(ctx.events).map((e) => JSON.stringify(e));
  const key = (i: number) => `e${i}`;

  // the expected matches: the same events, parsed from the text the engine reads, through RuleIndex
  const started = performance.now();
  const index = new RuleIndex(compiled);
  const expected = new Set<string>();
  for (let i = 0; i < texts.length; i++) {
    const event = JSON.parse(texts[i]!) as Record<string, unknown>;
    const count = index.select(event);
    for (let c = 0; c < count; c++) {
      const r = index.selected[c]!;
      if (compiled[r]!.run(event) !== null) expected.add(`${key(i)} sigma-${r}`);
    }
  }
  const checkSeconds = (performance.now() - started) / 1000;

  const input = 'sigma-in';
  const output = 'sigma-out';
  const alerts = 'sigma-alerts';
  const group = 'bench-sigma';
  await ctx.createTopics([input, output, alerts]);
  const producer = new Producer({ clientId: 'bench-sigma-load', bootstrapBrokers: [ctx.bootstrap] });
  const loadStart = performance.now();
  let bytes = 0;
  // requests of at most ~512 KiB: under the broker's message size (events of up to tens of KiB)
  let messages: { topic: string; key: Buffer; value: Buffer }[] = [];
  let pending = 0;
  for (let j = 0; j < texts.length; j++) {
    const value = Buffer.from(texts[j]!);
    bytes += value.length;
    pending += value.length;
    messages.push({ topic: input, key: Buffer.from(key(j)), value });
    if (pending >= 512 * 1024 || j === texts.length - 1) {
      await producer.send({ messages, acks: ProduceAcks.LEADER });
      messages = [];
      pending = 0;
    }
  }
  await producer.close();
  const loadSeconds = (performance.now() - loadStart) / 1000;

  const snapshotFile = path.join(ctx.dir, 'sigma-snapshot.json');
  writeFileSync(snapshotFile, JSON.stringify(sigmaSnapshot(input, output, pdls)));
  const runner = startWeir(
    {
      bootstrap: ctx.bootstrap,
      group,
      scenario: 'passthrough', // replaced by the snapshot file
      input,
      output,
      alertsTopic: alerts,
      threads,
      snapshotFile,
    },
    ctx.log(group),
  );
  const m = await ctx.measure(runner, group, input, output, texts.length);

  // the check: every expected (event, rule) pair on the alerts topic, and nothing else
  const seen = new Set<string>();
  const ids = new Set<string>();
  let written = 0;
  // the figures first: the check below reads every alert back (minutes for 1M events)
  console.log(
    `sigma: Weir, ${threads} threads, topic in → alerts out: ${fmt(m.rate)} events/s, ${m.cpuPerMillion.toFixed(2)} CPU-s per 1M ` +
      `(${fmt(1e6 / m.cpuPerMillion)} events per CPU-second of the process), resident max ${fmt(m.rssMaxMiB)} MiB` +
      `${m.cadenceMs === undefined ? '' : `, a batch every ${m.cadenceMs.toFixed(1)} ms per thread (${fmt((m.cadenceMs * m.rate) / 1000 / threads)} events each)`}; goal ≥ 30,000 events/s: ${m.rate >= 30_000 ? 'met' : 'NOT met'}`,
  );
  if (m.brokerCpuPerMillion !== undefined) {
    // the ceiling: every core busy with Weir, the broker and the bench at the costs per event measured here
    const cores = os.cpus().length;
    const others = m.brokerCpuPerMillion + (m.benchCpuPerMillion ?? 0);
    const all = m.cpuPerMillion + others;
    const goalBudget = (cores * 1e6) / 30_000;
    console.log(
      `sigma: CPU-s per 1M events over the same window: Weir ${m.cpuPerMillion.toFixed(2)}, broker ${m.brokerCpuPerMillion.toFixed(2)}, ` +
        `bench ${(m.benchCpuPerMillion ?? 0).toFixed(2)} (sum ${all.toFixed(2)}); the best rate ${cores} cores allow at these costs: ${fmt((cores * 1e6) / all)} events/s; ` +
        `30,000 events/s needs the sum ≤ ${goalBudget.toFixed(2)}: Weir ≤ ${(goalBudget - others).toFixed(2)} CPU-s per 1M with the broker's and the bench's as here`,
    );
  }
  for await (const [k, value] of topicRecords(ctx.bootstrap, alerts)) {
    const alert = JSON.parse(value) as { _rule?: { id?: string }; _alert?: { id?: string } };
    written++;
    seen.add(`${k} ${alert._rule?.id}`);
    if (alert._alert?.id !== undefined) ids.add(alert._alert.id);
  }
  const missing = [...expected].filter((p) => !seen.has(p));
  const extra = [...seen].filter((p) => !expected.has(p));
  console.log(
    `sigma: ${fmt(files)} SigmaHQ files → ${fmt(pdls.length)} rules (evtx-json) in one APPLY_RULES task; ${fmt(texts.length)} events ` +
      `(${(bytes / texts.length).toFixed(0)} bytes on average) loaded in ${loadSeconds.toFixed(1)} s; the in-process check (RuleIndex) took ${checkSeconds.toFixed(1)} s`,
  );
  console.log(
    `sigma: alerts written ${fmt(written)} (${fmt(ids.size)} distinct _alert.id, ${fmt(written - ids.size)} written again), output records ${fmt(m.outputs)}; ` +
      `matches found in process ${fmt(expected.size)}; (event, rule) pairs on the alerts topic ${fmt(seen.size)}, missing ${missing.length}, not expected ${extra.length}`,
  );
  if (missing.length > 0 || extra.length > 0)
    throw new Error(
      `sigma: the alerts differ from the in-process matches: missing ${missing.slice(0, 5).join(', ')}; not expected ${extra.slice(0, 5).join(', ')}`,
    );
}
