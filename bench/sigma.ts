/**
 * bench/sigma (issue #14, item 4): every SigmaHQ rule that converts with the EVTX-JSON mapping, in
 * one rule set as APPLY_RULES holds it, over a corpus of Windows events (SigmaHQ's regression
 * events and generated variants of them), events/s on one core with RuleIndex against the same
 * rules evaluated one by one (same process, same events, alternating rounds). Both paths must find
 * the same matches.
 *
 * Corpus: the regression events (true positives, ~1% of the corpus) and variants: the same event
 * kinds (Sysmon EventIDs, Security, PowerShell...) whose EventData strings are taken from other
 * events of the same kind and mixed with benign values (common images, folders, command lines,
 * users, hosts), so field shapes, lengths and value spread are those of real events.
 *
 * Run: node_modules/.bin/node bench/sigma.ts [events=200000] [rounds=3] [events for every-rule path=5000]
 * WEIR_BENCH_BEFORE=<another checkout>: that checkout's PDL (compile and RuleIndex) runs the same rules
 * and events in the same process, its round between this checkout's (a before/after ratio that a
 * busy machine's swings in CPU share affect alike); it must find the same matches.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { compile, RuleIndex } from '../packages/pdl/src/index.ts';
import type { CompiledPdl } from '../packages/pdl/src/index.ts';
import { builtInMappingsUrl, convertSigma, parseMapping } from '../packages/sigma/src/index.ts';
import { sharedData } from '../packages/sigma/test/shared-data.ts';
import { prng } from './pdl-corpus.ts';
import {
  applyRulesRun,
  assertSameMatches,
  everyRuleRun,
  fmt,
  indexedRun,
  measureRounds,
  timedPath,
  perSecond,
} from './rule-timing.ts';
import type { Outcome, Path } from './rule-timing.ts';

const count = Number(process.argv[2] ?? 200_000);
const rounds = Number(process.argv[3] ?? 3);
/** The path that evaluates every rule is measured on this many events. */
const linearCount = Math.min(count, Number(process.argv[4] ?? 5_000));

// ---- rules --------------------------------------------------------------------------------

const walk = (d: string): string[] =>
  readdirSync(d).flatMap((n) => {
    const f = path.join(d, n);
    return statSync(f).isDirectory() ? walk(f) : f.endsWith('.yml') ? [f] : [];
  });
const folders = [
  'rules',
  'rules-emerging-threats',
  'rules-threat-hunting',
  'rules-compliance',
  'rules-dfir',
  'rules-placeholder',
];
const files = folders.flatMap((f) => walk(sharedData('sigma', f)));
const mapping = parseMapping(readFileSync(new URL('evtx-json.yml', builtInMappingsUrl), 'utf8'));
const convertStart = performance.now();
const pdls: string[] = [];
let failed = 0;
for (const f of files) {
  for (const r of convertSigma(readFileSync(f, 'utf8'), { mapping })) {
    if (r.status === 'converted') pdls.push(r.rule.pdl);
    else if (r.status === 'error') failed++;
  }
}
const convertMs = performance.now() - convertStart;
const compileStart = performance.now();
const compiled: CompiledPdl[] = pdls.map((p) => compile(p));
const compileMs = performance.now() - compileStart;
const indexStart = performance.now();
const index = new RuleIndex(compiled);
const indexMs = performance.now() - indexStart;
console.error(
  `# ${pdls.length} rules converted (${convertMs.toFixed(0)} ms), compiled (${compileMs.toFixed(0)} ms), indexed (${indexMs.toFixed(0)} ms)`,
);

// ---- events -------------------------------------------------------------------------------

type Json = Record<string, unknown>;
const regressionEvents: Json[] = [];
const collect = (d: string): void => {
  for (const n of readdirSync(d)) {
    const full = path.join(d, n);
    if (statSync(full).isDirectory()) collect(full);
    else if (n.endsWith('.json'))
      for (const part of readFileSync(full, 'utf8')
        .trim()
        .split(/\n(?=\{)/))
        regressionEvents.push(JSON.parse(part) as Json);
  }
};
collect(sharedData('sigma', 'regression'));

const random = prng(1414);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
const BENIGN_IMAGES = [
  'C:\\Windows\\System32\\svchost.exe',
  'C:\\Windows\\explorer.exe',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
  'C:\\Program Files\\Microsoft Office\\root\\Office16\\OUTLOOK.EXE',
  'C:\\Windows\\System32\\RuntimeBroker.exe',
  'C:\\Windows\\System32\\taskhostw.exe',
  'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
  'C:\\Windows\\System32\\SearchIndexer.exe',
  'C:\\Windows\\System32\\conhost.exe',
  'C:\\Program Files\\Vendor\\Agent\\agent.exe',
  'C:\\Windows\\System32\\backgroundTaskHost.exe',
  'C:\\Windows\\System32\\dllhost.exe',
];
const BENIGN_ARGS = [
  '-k netsvcs -p',
  '--type=renderer --lang=en-US',
  '/background',
  '-Embedding',
  '/processid:{AB8902B4-09CA-4BB6-B78D-A8F59079A8D5}',
  '0xffffffff -ForceV1',
  '',
];
const USERS = Array.from({ length: 300 }, (_, i) => `CORP\\user${i}`);
const HOSTS = Array.from({ length: 200 }, (_, i) => `ws${i}.corp.example`);

/** String values seen per (EventID, field) in the regression events: the pools variants draw from. */
const pools = new Map<string, string[]>();
for (const e of regressionEvents) {
  const ev = e.Event as { System: Json; EventData?: Json };
  for (const [k, v] of Object.entries(ev.EventData ?? {})) {
    if (typeof v !== 'string') continue;
    const key = `${String(ev.System.EventID)}/${k}`;
    (pools.get(key) ?? (pools.set(key, []).get(key) as string[])).push(v);
  }
}

function variant(): Json {
  const base = pick(regressionEvents);
  const ev = base.Event as { System: Json; EventData?: Json };
  const data: Json = {};
  for (const [k, v] of Object.entries(ev.EventData ?? {})) {
    if (typeof v !== 'string') {
      data[k] = v;
      continue;
    }
    const r = random();
    if (k === 'Image' || k === 'ParentImage' || k === 'SourceImage' || k === 'TargetImage')
      data[k] = r < 0.85 ? pick(BENIGN_IMAGES) : pick(pools.get(`${String(ev.System.EventID)}/${k}`) ?? [v]);
    else if (k === 'CommandLine' || k === 'ParentCommandLine')
      data[k] =
        r < 0.85
          ? `"${pick(BENIGN_IMAGES)}" ${pick(BENIGN_ARGS)}`
          : pick(pools.get(`${String(ev.System.EventID)}/${k}`) ?? [v]);
    else if (k === 'User') data[k] = pick(USERS);
    else if (r < 0.5) data[k] = pick(pools.get(`${String(ev.System.EventID)}/${k}`) ?? [v]);
    else data[k] = v;
  }
  return { Event: { ...(base.Event as Json), System: { ...ev.System, Computer: pick(HOSTS) }, EventData: data } };
}

const events: Json[] = Array.from({ length: count }, (_, i) =>
  i % 100 === 0 ? (regressionEvents[(i / 100) % regressionEvents.length] as Json) : variant(),
);

// ---- paths --------------------------------------------------------------------------------

const applyRules = applyRulesRun(compiled, events);
const paths: Path[] = [
  timedPath('RuleIndex, then each selected rule', count, () => indexedRun(index, compiled, events, count)),
  timedPath('every rule, one by one', linearCount, () => everyRuleRun(compiled, events, linearCount)),
  timedPath('APPLY_RULES task (alerts built)', count, () => applyRules(count)),
];
const before = process.env.WEIR_BENCH_BEFORE;
if (before !== undefined) {
  // the other checkout's compiler and index (its RuleIndex takes null where this one takes 'always': none here)
  const other = (await import(path.resolve(before, 'packages/pdl/src/index.ts'))) as {
    compile: typeof compile;
    RuleIndex: typeof RuleIndex;
  };
  const beforeCompiled = pdls.map((p) => other.compile(p));
  const beforeIndex = new other.RuleIndex(beforeCompiled);
  paths.push(
    timedPath('RuleIndex, before (WEIR_BENCH_BEFORE)', count, () =>
      indexedRun(beforeIndex, beforeCompiled, events, count),
    ),
  );
}
measureRounds(paths, rounds, 'cpu');
const check = timedPath('RuleIndex, first events', linearCount, () => indexedRun(index, compiled, events, linearCount));
check.outcome = check.run();
assertSameMatches('sigma', check, paths[1] as Path);
assertSameMatches('sigma', paths[0] as Path, paths[2] as Path);
if (paths[3] !== undefined) assertSameMatches('sigma', paths[0] as Path, paths[3]);

console.log(
  `bench/sigma: ${fmt(count)} events, best of ${rounds} rounds after a warm-up (node ${process.version}; CPU time of the process, so events per CPU-second)`,
);
console.log(
  `rules: ${fmt(files.length)} SigmaHQ files → ${fmt(pdls.length)} converted with evtx-json (${fmt(failed)} not: other products, or the reasons of docs/sigma.md); ${fmt(index.indexedCount)} indexed by RuleIndex`,
);
console.log(
  `setup: convert ${convertMs.toFixed(0)} ms, compile ${compileMs.toFixed(0)} ms, index ${indexMs.toFixed(0)} ms`,
);
console.log(
  `corpus: ${fmt(regressionEvents.length)} regression events (every 100th event) and generated variants; matches ${fmt((paths[0]?.outcome as Outcome).matches)}; rules evaluated per event with the index ${((paths[0]?.outcome as Outcome).evaluated / count).toFixed(2)}`,
);
for (const p of paths)
  console.log(
    `  ${p.name.padEnd(36)} ${p.best.toFixed(1).padStart(9)} ms for ${fmt(p.events).padStart(8)} events  ${fmt(perSecond(p)).padStart(10)} events/s`,
  );
console.log(
  `  ratio index / every rule: ${(perSecond(paths[0] as Path) / perSecond(paths[1] as Path)).toFixed(1)}×; goal ≥ 50,000 events/s per core: ${perSecond(paths[0] as Path) >= 50_000 ? 'met' : 'NOT met'}`,
);
if (paths[3] !== undefined)
  console.log(
    `  ratio RuleIndex this checkout / before (${before}): ${(perSecond(paths[0] as Path) / perSecond(paths[3])).toFixed(2)}×; rules evaluated per event before ${((paths[3].outcome as Outcome).evaluated / count).toFixed(2)}`,
  );
