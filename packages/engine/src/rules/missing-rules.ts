import type { StoredPipeline, StoredTask, StoredTopology } from '@weir/contract';

/** A rule an APPLY_RULES task lists that does not exist (a DanglingReference of resources/references.ts). */
export interface MissingRule {
  readonly from: { readonly kind: 'task'; readonly id: number; readonly name: string };
  readonly to: { readonly kind: 'rule'; readonly id: string };
  /** Where in the task: `definition.rules[1]`. */
  readonly field: string;
  readonly message: string;
}

/** The rules APPLY_RULES tasks list that do not exist (what the engine skips, counting them as `missing`). */
export function missingRules(tasks: readonly StoredTask[], ruleIds: ReadonlySet<string>): MissingRule[] {
  const out: MissingRule[] = [];
  for (const task of tasks) {
    if (task.function !== 'APPLY_RULES' || !Array.isArray(task.definition.rules)) continue;
    const from = { kind: 'task', id: task.id, name: task.name } as const;
    (task.definition.rules as unknown[]).forEach((id, i) => {
      if (typeof id === 'string' && !ruleIds.has(id))
        out.push({
          from,
          to: { kind: 'rule', id },
          field: `definition.rules[${i}]`,
          message: `task ${task.id} (${task.name}) applies rule \`${id}\`, which does not exist`,
        });
    });
  }
  return out;
}

/** The configuration a node group runs: its enabled topologies, their pipelines and tasks. */
export interface RunScope {
  readonly topologies: readonly StoredTopology[];
  readonly pipelines: readonly StoredPipeline[];
  readonly tasks: readonly StoredTask[];
}

/** The tasks the enabled topologies of one node group run: what the stream engine of that group meets. */
export function tasksRunBy(group: string, scope: RunScope): StoredTask[] {
  const pipelines = new Set(scope.topologies.filter((t) => t.enabled && t.group === group).flatMap((t) => t.pipelines));
  const tasks = new Set(scope.pipelines.filter((p) => pipelines.has(p.id)).flatMap((p) => p.tasks));
  return scope.tasks.filter((t) => tasks.has(t.id));
}
