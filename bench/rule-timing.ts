/**
 * What bench/pdl.ts and bench/sigma.ts share: the loops that match events against compiled rules
 * (through a RuleIndex, every rule one by one, the APPLY_RULES task) and the timing of them
 * (a warm-up round, then the best of some rounds, on CPU or wall-clock time).
 */
import { compileTask } from '../packages/engine/src/tasks/index.ts';
import type { RuleEntry, RuleSource } from '../packages/engine/src/tasks/index.ts';
import type { CompiledPdl, RuleIndex } from '../packages/pdl/src/index.ts';

type Event = Record<string, unknown>;

export interface Outcome {
  readonly matches: number;
  /** Sum of matching rule positions: two paths must find the same rules, not only as many. */
  readonly checksum: number;
  /** Rules evaluated. */
  readonly evaluated: number;
}

/** RuleIndex.select, then each selected rule: as APPLY_RULES runs them. */
export function indexedRun(
  index: RuleIndex,
  compiled: readonly CompiledPdl[],
  events: readonly Event[],
  n: number,
): Outcome {
  let matches = 0;
  let checksum = 0;
  let evaluated = 0;
  for (let e = 0; e < n; e++) {
    const event = events[e] as Event;
    const count = index.select(event);
    const selected = index.selected;
    evaluated += count;
    for (let c = 0; c < count; c++) {
      const i = selected[c] as number;
      if ((compiled[i] as CompiledPdl).run(event) !== null) {
        matches++;
        checksum += i;
      }
    }
  }
  return { matches, checksum, evaluated };
}

/** Every rule, one by one. */
export function everyRuleRun(compiled: readonly CompiledPdl[], events: readonly Event[], n: number): Outcome {
  let matches = 0;
  let checksum = 0;
  for (let e = 0; e < n; e++) {
    const event = events[e] as Event;
    for (let i = 0; i < compiled.length; i++) {
      if ((compiled[i] as CompiledPdl).run(event) !== null) {
        matches++;
        checksum += i;
      }
    }
  }
  return { matches, checksum, evaluated: n * compiled.length };
}

/** The whole APPLY_RULES task (alerts built, matchAll) over the rules, as a run of the first n events. */
export function applyRulesRun(compiled: readonly CompiledPdl[], events: readonly Event[]): (n: number) => Outcome {
  const entries = new Map<string, RuleEntry>(
    compiled.map((c, i) => [`r${i}`, { id: `r${i}`, name: `rule ${i}`, annotations: [], enabled: true, compiled: c }]),
  );
  const source: RuleSource = { get: (id) => entries.get(id), version: 1 };
  const task = compileTask(
    { id: 1, name: 'rules', function: 'APPLY_RULES', definition: { rules: [...entries.keys()], matchAll: true } },
    { rules: source },
  );
  return (n) => {
    let matches = 0;
    let checksum = 0;
    for (let e = 0; e < n; e++) {
      const result = task.run({ value: events[e] as Event, timestamp: 0 });
      if (result.kind !== 'alerts') continue;
      for (const r of result.records) {
        matches++;
        checksum += Number((r.value as { _rule: { id: string } })._rule.id.slice(1));
      }
    }
    return { matches, checksum, evaluated: 0 };
  };
}

/** A measured path: its best time (ms) over the rounds and the outcome of its last run. */
export interface Path {
  readonly name: string;
  readonly events: number;
  readonly run: () => Outcome;
  best: number;
  outcome?: Outcome;
}

export const timedPath = (name: string, events: number, run: () => Outcome): Path => ({
  name,
  events,
  run,
  best: Infinity,
});

/**
 * Runs every path once to warm up, then `rounds` times, alternating; keeps each path's best time.
 * `cpu`: CPU time of the process (user + system; on a shared, loaded machine the process gets a
 * varying share of a core, and events per CPU-second is the per-core figure); `wall`: elapsed time.
 */
export function measureRounds(paths: readonly Path[], rounds: number, clock: 'cpu' | 'wall'): void {
  for (let round = 0; round <= rounds; round++) {
    for (const p of paths) {
      const cpu = process.cpuUsage();
      const wall = process.hrtime.bigint();
      p.outcome = p.run();
      const used = process.cpuUsage(cpu);
      const ms = clock === 'cpu' ? (used.user + used.system) / 1000 : Number(process.hrtime.bigint() - wall) / 1e6;
      if (round > 0) p.best = Math.min(p.best, ms); // round 0 warms up
    }
  }
}

/** Throws unless both paths found the same matching rules. */
export function assertSameMatches(label: string, a: Path, b: Path): void {
  const x = a.outcome as Outcome;
  const y = b.outcome as Outcome;
  if (x.matches !== y.matches || x.checksum !== y.checksum)
    throw new Error(`${label}: ${a.name} found ${x.matches} (${x.checksum}), ${b.name} ${y.matches} (${y.checksum})`);
}

export const perSecond = (p: Path): number => p.events / (p.best / 1000);
export const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
