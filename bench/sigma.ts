/**
 * bench/sigma (issue #14, item 4): every SigmaHQ rule that converts with the EVTX-JSON mapping, in
 * one rule set as APPLY_RULES holds it, over a corpus of Windows events (SigmaHQ's regression
 * events and generated variants of them), events/s on one core with RuleIndex against the same
 * rules evaluated one by one (same process, same events, alternating rounds). Both paths must find
 * the same matches.
 *
 * Rules and corpus (bench/sigma-corpus.ts, shared with bench/engine.ts's `sigma` part, which runs
 * the same rules and events through the whole engine): the regression events (true positives, ~1%
 * of the corpus) and variants of the same event kinds mixed with benign values.
 *
 * Run: node_modules/.bin/node bench/sigma.ts [events=200000] [rounds=3] [events for every-rule path=5000]
 * WEIR_BENCH_BEFORE=<another checkout>: that checkout's PDL (compile and RuleIndex) runs the same rules
 * and events in the same process, its round between this checkout's (a before/after ratio that a
 * busy machine's swings in CPU share affect alike); it must find the same matches.
 */
import path from 'node:path';
import { compile, RuleIndex } from '../packages/pdl/src/index.ts';
import type { CompiledPdl } from '../packages/pdl/src/index.ts';
import { regressionEvents, sigmaEvents, sigmaRules, type Json } from './sigma-corpus.ts';
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

const { files: fileCount, pdls, failed, convertMs } = sigmaRules();
const compileStart = performance.now();
const compiled: CompiledPdl[] = pdls.map((p) => compile(p));
const compileMs = performance.now() - compileStart;
const indexStart = performance.now();
const index = new RuleIndex(compiled);
const indexMs = performance.now() - indexStart;
console.error(
  `# ${pdls.length} rules converted (${convertMs.toFixed(0)} ms), compiled (${compileMs.toFixed(0)} ms), indexed (${indexMs.toFixed(0)} ms)`,
);

// ---- events (bench/sigma-corpus.ts) -------------------------------------------------------

const regression = regressionEvents();
const events: Json[] = sigmaEvents(count, regression);

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
  `rules: ${fmt(fileCount)} SigmaHQ files → ${fmt(pdls.length)} converted with evtx-json (${fmt(failed)} not: other products, or the reasons of docs/sigma.md); ${fmt(index.indexedCount)} indexed by RuleIndex`,
);
console.log(
  `setup: convert ${convertMs.toFixed(0)} ms, compile ${compileMs.toFixed(0)} ms, index ${indexMs.toFixed(0)} ms`,
);
console.log(
  `corpus: ${fmt(regression.length)} regression events (every 100th event) and generated variants; matches ${fmt((paths[0]?.outcome as Outcome).matches)}; rules evaluated per event with the index ${((paths[0]?.outcome as Outcome).evaluated / count).toFixed(2)}`,
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
