/**
 * bench/pdl (issue #5, item 6): Sigma-style rules compiled by PDL against the same predicates
 * written by hand in JavaScript, over the same synthetic events in the same process.
 *   (a) 100 rules: PDL / hand-written throughput;
 *   (b) 1,000 rules: how the cost grows with the rule count (rules indexed by RuleIndex);
 *   (c) events/s on one core for each.
 * The PDL path is the one APPLY_RULES takes: RuleIndex.candidates(event), then run() of each
 * candidate's compiled PDL. The hand-written baseline indexes its rules too (a Map per field on the
 * field each rule was written around) and also runs without an index (every rule, in order).
 *
 * Run: node_modules/.bin/node bench/pdl.ts [events=1000000] [rounds=5]
 */
import { compile, RuleIndex } from '../packages/pdl/src/index.ts';
import type { CompiledPdl } from '../packages/pdl/src/index.ts';
import { makeEvent, makeRule, prng } from './pdl-corpus.ts';
import type { BenchEvent, RuleSpec } from './pdl-corpus.ts';
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

const count = Number(process.argv[2] ?? 1_000_000);
const rounds = Number(process.argv[3] ?? 5);
/** Paths that evaluate every rule are measured on this many events when there are 1,000 rules. */
const linearCount = Math.min(count, 100_000);

const eventRandom = prng(42);
const events: BenchEvent[] = Array.from({ length: count }, () => makeEvent(eventRandom));

type HandRule = (e: BenchEvent) => boolean;

interface RuleSet {
  readonly size: number;
  /** Whether one rule in a hundred has no equality to index (see makeRule). */
  readonly unindexable: boolean;
  readonly specs: readonly RuleSpec[];
  readonly compiled: readonly CompiledPdl[];
  readonly index: RuleIndex;
  readonly hand: readonly HandRule[];
  /** The hand-written index: per field, value → rule positions; and the rules it cannot key. */
  readonly handFields: readonly string[];
  readonly handMaps: readonly Map<unknown, number[]>[];
  readonly handAlways: readonly number[];
}

function ruleSet(size: number, unindexable: boolean): RuleSet {
  const random = prng(7); // the 100 rules are the first 100 of the 1,000
  const specs = Array.from({ length: size }, (_, k) => makeRule(random, k, unindexable));
  const compiled = specs.map((s) => compile(s.pdl));
  const hand = specs.map((s) => new Function(`${s.setup ?? ''}\nreturn (e) => ${s.js};`)() as HandRule);
  const byField = new Map<string, Map<unknown, number[]>>();
  const handAlways: number[] = [];
  specs.forEach((s, position) => {
    if (s.primary === null) {
      handAlways.push(position);
      return;
    }
    let map = byField.get(s.primary.field);
    if (map === undefined) byField.set(s.primary.field, (map = new Map()));
    for (const v of s.primary.values) {
      const list = map.get(v) ?? [];
      if (list[list.length - 1] !== position) list.push(position);
      map.set(v, list);
    }
  });
  return {
    size,
    unindexable,
    specs,
    compiled,
    index: new RuleIndex(compiled),
    hand,
    handFields: [...byField.keys()],
    handMaps: [...byField.values()],
    handAlways,
  };
}

function handLinear(set: RuleSet, n: number): Outcome {
  const { hand } = set;
  let matches = 0;
  let checksum = 0;
  for (let e = 0; e < n; e++) {
    const event = events[e] as BenchEvent;
    for (let i = 0; i < hand.length; i++) {
      if ((hand[i] as HandRule)(event)) {
        matches++;
        checksum += i;
      }
    }
  }
  return { matches, checksum, evaluated: n * hand.length };
}

function handIndexed(set: RuleSet, n: number): Outcome {
  const { hand, handFields, handMaps, handAlways } = set;
  const seen = new Int32Array(hand.length).fill(-1);
  let matches = 0;
  let checksum = 0;
  let evaluated = 0;
  const check = (list: readonly number[] | undefined, event: BenchEvent, e: number): void => {
    if (list === undefined) return;
    for (let k = 0; k < list.length; k++) {
      const i = list[k] as number;
      if (seen[i] === e) continue; // a tag list may name two of the event's tags
      seen[i] = e;
      evaluated++;
      if ((hand[i] as HandRule)(event)) {
        matches++;
        checksum += i;
      }
    }
  };
  for (let e = 0; e < n; e++) {
    const event = events[e] as BenchEvent;
    for (let f = 0; f < handFields.length; f++) {
      const value = event[handFields[f] as string];
      if (value === undefined) continue;
      const map = handMaps[f] as Map<unknown, number[]>;
      if (Array.isArray(value)) for (let j = 0; j < value.length; j++) check(map.get(value[j]), event, e);
      else check(map.get(value), event, e);
    }
    check(handAlways, event, e);
  }
  return { matches, checksum, evaluated };
}

function paths(set: RuleSet): Path[] {
  const n = set.size > 100 ? linearCount : count;
  const indexed: Path[] = [
    timedPath('hand-written, indexed', count, () => handIndexed(set, count)),
    timedPath('PDL, RuleIndex', count, () => indexedRun(set.index, set.compiled, events, count)),
  ];
  if (!set.unindexable) return indexed;
  const task = applyRulesRun(set.compiled, events);
  return [
    ...indexed,
    timedPath('hand-written, every rule', n, () => handLinear(set, n)),
    timedPath('PDL, every rule', n, () => everyRuleRun(set.compiled, events, n)),
    timedPath('APPLY_RULES task (alerts built)', count, () => task(count)),
  ];
}

const sets = [ruleSet(100, true), ruleSet(1000, true), ruleSet(100, false), ruleSet(1000, false)];
const all = sets.map((set) => ({ set, paths: paths(set) }));
measureRounds(
  all.flatMap((x) => x.paths),
  rounds,
  'wall',
);

const ratio = (a: Path, b: Path): string => (perSecond(a) / perSecond(b)).toFixed(2);
console.log(
  `bench/pdl: ${fmt(count)} events, best of ${rounds} rounds after a warm-up (node ${process.version}, one core)`,
);
for (const { set, paths: ps } of all) {
  const [hand, pdl, handAll, pdlAll, task] = ps as [Path, Path, Path?, Path?, Path?];
  for (const [a, b] of [
    [hand, pdl],
    [handAll, pdlAll],
    [pdl, task],
  ] as const) {
    if (a !== undefined && b !== undefined) assertSameMatches(`${set.size} rules`, a, b);
  }
  const o = pdl.outcome as Outcome;
  console.log(
    `\n${set.size} rules, ${set.unindexable ? 'one in 100 without an equality' : 'every rule with an equality'} ` +
      `(${set.index.indexedCount} indexed by RuleIndex): ${fmt(o.matches)} matches; ` +
      `rules evaluated per event: PDL ${(o.evaluated / count).toFixed(2)}, hand index ${((hand.outcome as Outcome).evaluated / count).toFixed(2)}`,
  );
  for (const p of ps)
    console.log(
      `  ${p.name.padEnd(34)} ${p.best.toFixed(1).padStart(9)} ms for ${fmt(p.events).padStart(9)} events  ${fmt(perSecond(p)).padStart(11)} events/s`,
    );
  console.log(`  ratio PDL / hand-written, both indexed:    ${ratio(pdl, hand)}`);
  if (handAll !== undefined && pdlAll !== undefined) {
    console.log(`  ratio PDL / hand-written, every rule:      ${ratio(pdlAll, handAll)}`);
    console.log(`  ratio PDL indexed / hand-written every rule: ${ratio(pdl, handAll)}`);
  }
}
for (const unindexable of [true, false]) {
  const [small, large] = all.filter((x) => x.set.unindexable === unindexable).map((x) => x.paths) as [Path[], Path[]];
  console.log(
    `\ncost of 1,000 rules / 100 rules (${unindexable ? 'one in 100 without an equality' : 'every rule with an equality'}): ` +
      `PDL ${((large[1] as Path).best / (small[1] as Path).best).toFixed(2)}×, hand-written indexed ${((large[0] as Path).best / (small[0] as Path).best).toFixed(2)}×`,
  );
}
