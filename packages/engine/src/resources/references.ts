import type { LookupResolver } from '@weir/pdl';
import { missingRules } from '../rules/missing-rules.ts';
import { RuleBook } from '../rules/rule-book.ts';
import { compileTask } from '../tasks/index.ts';
import type { StoredPipeline } from './pipeline.ts';
import type { StoredRule } from './rule.ts';
import type { StoredTask } from './task.ts';
import type { StoredTopology } from './topology.ts';

/** What refers: a configuration record. */
export interface ReferenceSource {
  readonly kind: 'topology' | 'pipeline' | 'task' | 'rule';
  readonly id: string | number;
  readonly name: string;
}

/**
 * A reference to something that does not exist: the API keeps accepting such configuration, as the
 * original product did (a task may name a rule created later), and the engine skips what is missing.
 */
export interface DanglingReference {
  readonly from: ReferenceSource;
  readonly to: { readonly kind: 'topic' | 'pipeline' | 'task' | 'rule' | 'lookup'; readonly id: string | number };
  /** Where in the record, e.g. `definition.rules[1]`, `tasks[0]`, `input.name`. */
  readonly field: string;
  readonly message: string;
}

/** The configuration whose references are checked; `topics` undefined: topics are not checked. */
export interface ReferenceScope {
  readonly topologies: readonly StoredTopology[];
  readonly pipelines: readonly StoredPipeline[];
  readonly tasks: readonly StoredTask[];
  readonly rules: readonly StoredRule[];
  readonly lookupExists: (id: string) => boolean;
  readonly topics?: ReadonlySet<string>;
}

const describe = (s: ReferenceSource) => (s.kind === 'rule' ? `rule \`${s.id}\`` : `${s.kind} ${s.id} (${s.name})`);

/** The lookup ids a PDL program or task asks for while compiling (every one answered with an empty table). */
function lookupsAskedBy(build: (lookups: LookupResolver) => unknown): string[] {
  const asked = new Set<string>();
  try {
    build({
      get: (id) => {
        asked.add(id);
        return { version: 0, rows: [] };
      },
    });
  } catch {
    // A record that no longer compiles for another reason: its save-time check said so; only lookups are checked here.
  }
  return [...asked];
}

/**
 * Every dangling reference of a configuration, in a stable order (topologies, pipelines, tasks,
 * rules; each by id, then by field): topology → pipeline or input topic, pipeline → task,
 * task → rule (APPLY_RULES) or lookup (PDL), rule → lookup.
 */
export function danglingReferences(scope: ReferenceScope): DanglingReference[] {
  const out: DanglingReference[] = [];
  const pipelineIds = new Set(scope.pipelines.map((p) => p.id));
  const taskIds = new Set(scope.tasks.map((t) => t.id));
  const ruleIds = new Set(scope.rules.map((r) => r.id));
  const add = (from: ReferenceSource, to: DanglingReference['to'], field: string, verb: string) => {
    out.push({ from, to, field, message: `${describe(from)} ${verb} ${to.kind} ${label(to)}, which does not exist` });
  };

  for (const t of byId(scope.topologies)) {
    const from = { kind: 'topology', id: t.id, name: t.name } as const;
    if (scope.topics !== undefined && !scope.topics.has(t.input.name))
      add(from, { kind: 'topic', id: t.input.name }, 'input.name', 'reads');
    t.pipelines.forEach((id, i) => {
      if (!pipelineIds.has(id)) add(from, { kind: 'pipeline', id }, `pipelines[${i}]`, 'runs');
    });
  }
  for (const p of byId(scope.pipelines)) {
    const from = { kind: 'pipeline', id: p.id, name: p.name } as const;
    p.tasks.forEach((id, i) => {
      if (!taskIds.has(id)) add(from, { kind: 'task', id }, `tasks[${i}]`, 'runs');
    });
  }
  for (const task of byId(scope.tasks)) {
    const from = { kind: 'task', id: task.id, name: task.name } as const;
    out.push(...missingRules([task], ruleIds));
    for (const id of lookupsAskedBy((lookups) => compileTask(task, { lookups })))
      if (!scope.lookupExists(id)) add(from, { kind: 'lookup', id }, 'definition', 'uses');
  }
  for (const rule of [...scope.rules].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const from = { kind: 'rule', id: rule.id, name: rule.name } as const;
    for (const id of lookupsAskedBy((lookups) => new RuleBook().update([rule], lookups)))
      if (!scope.lookupExists(id)) add(from, { kind: 'lookup', id }, 'pdl', 'uses');
  }
  return out;
}

function label(to: DanglingReference['to']): string {
  return typeof to.id === 'number' ? String(to.id) : `\`${to.id}\``;
}

function byId<T extends { readonly id: number }>(records: readonly T[]): T[] {
  return [...records].sort((a, b) => a.id - b.id);
}
