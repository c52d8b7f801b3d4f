/**
 * bench/backtest-cli (issue #22, speed goal: `weirctl backtest` in process ≥ 100,000 events/s per
 * core for 100 rules over NDJSON). The 100 rules of bench/engine.ts's reference pipeline
 * (engine-workload.ts), one `.pdl` file each, over an NDJSON file of the events that pipeline gives
 * its APPLY_RULES task (the parsed `key=value` line with `_time`, `severity` and `who`), run by the
 * real command (`run` of packages/client/src/cli/main.ts, in this process): rules read and
 * compiled, the file read and parsed, every rule evaluated, the table printed. Figures are events
 * per CPU-second of this process (user + system) and per wall second; the baseline, measured in
 * the same run, is reading the same file and `JSON.parse` of every line alone (the floor any NDJSON
 * backtest pays).
 *
 * Run: node_modules/.bin/node bench/backtest-cli.ts [events=500000] [rounds=3]
 */
import { mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from '../packages/client/src/cli/main.ts';
import { benchRules, line, pdlRules } from './engine-workload.ts';

const count = Number(process.argv[2] ?? 500_000);
const rounds = Number(process.argv[3] ?? 3);
const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-bench-backtest-'));

/** The event APPLY_RULES sees for input line `i` (PARSE_KV → TIMESTAMP → eval severity, who). */
function event(i: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of line(i).matchAll(/(\w+)=("([^"]*)"|\S+)/g)) {
    const raw = m[3] ?? m[2]!;
    out[m[1]!] = /^-?\d+$/.test(raw) ? Number(raw) : raw;
  }
  out._time = Date.parse(String(out.ts));
  out.severity = out.status === 'failed' ? 'high' : 'low';
  out.who = String(out.user).toLowerCase();
  return out;
}

const rulesDir = path.join(dir, 'rules');
mkdirSync(rulesDir);
for (const rule of pdlRules(benchRules(100))) {
  const fd = openSync(path.join(rulesDir, `${rule.id}.pdl`), 'w');
  writeSync(fd, `${rule.pdl}\n`);
  closeSync(fd);
}
const eventsFile = path.join(dir, 'events.ndjson');
{
  const fd = openSync(eventsFile, 'w');
  const batch: string[] = [];
  for (let i = 0; i < count; i++) {
    batch.push(JSON.stringify(event(i)));
    if (batch.length === 10_000 || i === count - 1) {
      writeSync(fd, `${batch.join('\n')}\n`);
      batch.length = 0;
    }
  }
  closeSync(fd);
}
const bytes = readFileSync(eventsFile).length;

interface Figure {
  readonly cpuSeconds: number;
  readonly wallSeconds: number;
}

function measure(work: () => Promise<void> | void): Promise<Figure> {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  return Promise.resolve(work()).then(() => {
    const used = process.cpuUsage(cpu);
    return { cpuSeconds: (used.user + used.system) / 1e6, wallSeconds: (performance.now() - wall) / 1000 };
  });
}

let table = '';
const backtest = async () => {
  let err = '';
  const code = await run(['backtest', '--rules', rulesDir, '--events', eventsFile], {
    out: (s) => void (table = s),
    err: (s) => void (err += s),
    env: {},
    signal: new AbortController().signal,
  });
  if (code !== 0) throw new Error(`weirctl backtest exited ${code}: ${err}`);
};
const parseOnly = () => {
  const text = readFileSync(eventsFile, 'utf8');
  let n = 0;
  for (const l of text.split('\n')) if (l !== '') n += JSON.parse(l) === null ? 0 : 1;
  if (n !== count) throw new Error(`parsed ${n} lines`);
};

const best = (figures: Figure[], key: keyof Figure) => Math.min(...figures.map((f) => f[key]));
const rate = (seconds: number) => Math.round(count / seconds).toLocaleString('en');
const results = { backtest: [] as Figure[], parse: [] as Figure[] };
for (let r = 0; r < rounds; r++) {
  results.parse.push(await measure(parseOnly));
  results.backtest.push(await measure(backtest));
}
const matches = table
  .split('\n')
  .slice(1)
  .reduce((sum, row) => sum + (Number(row.split(/\s+/)[2]) || 0), 0);
console.log(
  `${count.toLocaleString('en')} events (${(bytes / 1e6).toFixed(0)} MB NDJSON), 100 rules, ${matches.toLocaleString('en')} matches; best of ${rounds}`,
);
console.log(`node ${process.version}, ${os.cpus()[0]?.model ?? ''}`);
for (const [name, figures] of Object.entries(results)) {
  console.log(
    `${name.padEnd(9)} ${rate(best(figures, 'cpuSeconds')).padStart(10)} events/CPU-s  ${rate(best(figures, 'wallSeconds')).padStart(10)} events/wall-s  (CPU s: ${figures.map((f) => f.cpuSeconds.toFixed(2)).join(', ')})`,
  );
}
console.log(
  `backtest / JSON.parse alone: ${(best(results.parse, 'cpuSeconds') / best(results.backtest, 'cpuSeconds')).toFixed(2)}× the events/CPU-s`,
);
rmSync(dir, { recursive: true, force: true });
