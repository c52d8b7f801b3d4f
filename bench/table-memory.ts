/**
 * The memory of the tables themselves, for bench/engine.ts's `tables` part (bench/engine-memory.ts):
 * the resident growth of a bare Node process that holds ONE plain copy of what the memory goal of
 * issue 24 is about, as one thread would hold it without any sharing:
 * - the lookup's rows as JS objects (the `assets` rows of bench/engine-workload.ts, as a stored
 *   lookup's content) and PDL's own index of a rows table on the looked-up column (pdl/lookup.ts:
 *   a Map from value to row, built by the first `lookup` stage that reads it);
 * - the rules compiled once (PDL `compile`) and the APPLY_RULES task over them with its RuleIndex,
 *   after the reference pipeline ran 2,000 events through them (so the index has learned its keys
 *   and the lookup's column index exists).
 * Measured as resident memory (VmRSS) after a full collection (`--expose-gc`), minus the same
 * before, with the same code loaded and run once on an empty lookup and no rules (so compiled code
 * and the runtime are not counted). Prints one line of JSON: `{ rssMiB, heapMiB, externalMiB,
 * sharedMiB }` (`sharedMiB`: the bytes the engine puts in shared memory for the same rows,
 * rules/shared-lookup.ts, for reference).
 *
 * Run by bench/engine-memory.ts: `node --expose-gc bench/table-memory.ts <rows> <rules>`.
 */
import { compile } from '../packages/pdl/src/index.ts';
import { compileTask, runPipeline } from '../packages/engine/src/tasks/index.ts';
import type { CompiledTask, RuleEntry, RuleSource } from '../packages/engine/src/tasks/index.ts';
import { LookupTables } from '../packages/engine/src/rules/lookup-tables.ts';
import { shareLookup } from '../packages/engine/src/rules/shared-lookup.ts';
import { assetRows, benchRules, line, pdlRules, referenceTasks } from './engine-workload.ts';

const rowCount = Number(process.argv[2] ?? 1_000_000);
const ruleCount = Number(process.argv[3] ?? 10_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('bench/table-memory.ts needs --expose-gc');

/** The reference pipeline with a lookup of `assets` in its enrich task, over these rows and rules. */
function pipeline(rows: Record<string, unknown>[], count: number): CompiledTask[] {
  const lookups = new LookupTables((id) => (id === 'assets' ? rows : undefined));
  const stored = pdlRules(benchRules(count));
  const entries = new Map<string, RuleEntry>(
    stored.map((r) => [
      r.id,
      {
        id: r.id,
        name: r.name,
        annotations: [...(r.annotations ?? [])],
        enabled: true,
        compiled: compile(r.pdl, { lookups }),
      },
    ]),
  );
  const rules: RuleSource = { get: (id) => entries.get(id), version: 1 };
  const specs = [
    ...referenceTasks.map((t) =>
      t.name === 'enrich'
        ? {
            ...t,
            definition: { pdl: `${(t.definition as { pdl: string }).pdl} | lookup assets ip AS src OUTPUT owner` },
          }
        : t,
    ),
    { id: 4, name: 'detect', function: 'APPLY_RULES', definition: { rules: [...entries.keys()] } },
  ];
  const tasks = specs.map((t) => compileTask(t as Parameters<typeof compileTask>[0], { rules, lookups }));
  for (let i = 0; i < 2_000; i++) runPipeline(tasks, { value: line(i), timestamp: 0 });
  return tasks;
}

const mib = (n: number) => n / 2 ** 20;
function sample(): NodeJS.MemoryUsage {
  gc!();
  gc!();
  return process.memoryUsage();
}

pipeline([], 0); // the code loaded and run once: not counted
const before = sample();
const rows = assetRows(rowCount);
const held = pipeline(rows, ruleCount);
const after = sample();
const shared = shareLookup('assets', rows);
console.log(
  JSON.stringify({
    rssMiB: mib(after.rss - before.rss),
    heapMiB: mib(after.heapUsed - before.heapUsed),
    externalMiB: mib(after.external + after.arrayBuffers - before.external - before.arrayBuffers),
    sharedMiB: mib(shared.bytes.byteLength + shared.starts.byteLength),
    held: held.length + rows.length,
  }),
);
