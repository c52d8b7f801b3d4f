/**
 * Micro-benchmark of the task functions' hot path: PARSE_KV → TIMESTAMP on 200k synthetic
 * key=value records, against a hand-written parser of the same records measured in the same run.
 * Run: node_modules/.bin/node bench/tasks.ts [records]
 */
import { compileTask, runPipeline } from '../packages/engine/src/tasks/index.ts';
import type { TaskRecord } from '../packages/engine/src/tasks/index.ts';

const count = Number(process.argv[2] ?? 200_000);
const users = ['alice', 'bob', 'carol', 'dave', 'eve'];
const actions = ['login', 'logout', 'read', 'write'];
const texts: string[] = [];
for (let i = 0; i < count; i++) {
  const s = String(i % 60).padStart(2, '0');
  const ms = String(i % 1000).padStart(3, '0');
  texts.push(
    `time=2023-04-05T06:07:${s}.${ms}+0200 user=${users[i % 5]} action=${actions[i % 4]} src=10.0.${i % 256}.${i % 200} port=${1024 + (i % 5000)} msg="user session ${i}"`,
  );
}

const tasks = [
  compileTask({ id: 1, name: 'kv', function: 'PARSE_KV', definition: {} }),
  compileTask({ id: 2, name: 'ts', function: 'TIMESTAMP', definition: { field: 'time' } }),
];

/** Weir's path: runPipeline over the compiled tasks (what the engine and the test endpoint run). */
function weir(): number {
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const out = runPipeline(tasks, { value: texts[i] as string, timestamp: 0 });
    sum += (out.records[0] as TaskRecord).timestamp;
  }
  return sum;
}

/** The baseline: what one would write by hand for exactly this format. */
const timeRe = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})([+-])(\d{2})(\d{2})$/;
const pairRe = /(\w+)=(?:"([^"]*)"|(\S+))/g;
function baseline(): number {
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const text = texts[i] as string;
    const event: Record<string, unknown> = {};
    pairRe.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = pairRe.exec(text)) !== null) {
      const v = m[2] ?? (m[3] as string);
      const n = Number(v);
      event[m[1] as string] = v !== '' && String(n) === v ? n : v;
    }
    event['_raw'] = text;
    const t = timeRe.exec(event['time'] as string);
    let time = 0;
    if (t !== null) {
      const offset = (Number(t[9]) * 60 + Number(t[10])) * 60_000 * (t[8] === '-' ? -1 : 1);
      time =
        Date.UTC(Number(t[1]), Number(t[2]) - 1, Number(t[3]), Number(t[4]), Number(t[5]), Number(t[6]), Number(t[7])) -
        offset;
    }
    event['_time'] = time;
    sum += time;
  }
  return sum;
}

function measure(fn: () => number): { ms: number; sum: number } {
  const start = process.hrtime.bigint();
  const sum = fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, sum };
}

// warm up both, then alternate rounds and keep each one's best
for (let i = 0; i < 2; i++) {
  weir();
  baseline();
}
let best = { weir: Infinity, baseline: Infinity };
let sums = { weir: 0, baseline: 0 };
for (let round = 0; round < 5; round++) {
  const w = measure(weir);
  const b = measure(baseline);
  best = { weir: Math.min(best.weir, w.ms), baseline: Math.min(best.baseline, b.ms) };
  sums = { weir: w.sum, baseline: b.sum };
}
if (sums.weir !== sums.baseline) throw new Error(`the two paths disagree: ${sums.weir} != ${sums.baseline}`);
const rate = (ms: number): string => `${Math.round(count / (ms / 1000)).toLocaleString('en-US')} records/s`;
console.log(`PARSE_KV → TIMESTAMP, ${count.toLocaleString('en-US')} records, best of 5 (node ${process.version})`);
console.log(`  hand-written baseline: ${best.baseline.toFixed(1)} ms  ${rate(best.baseline)}`);
console.log(`  weir tasks (runPipeline): ${best.weir.toFixed(1)} ms  ${rate(best.weir)}`);
console.log(`  ratio weir/baseline throughput: ${(best.baseline / best.weir).toFixed(2)}`);
