import type { WeirClient } from '@weir/client';
import { resourceKindInfos, type Lookup, type Pipeline, type Rule, type Task, type Topology } from '@weir/contract';

/**
 * A node's whole configuration in one JSON file: what `Export configuration` writes and
 * `Import configuration` reads. Made of the API's own resource forms, so the file can also be fed
 * to the bulk endpoints by hand.
 */
export interface ConfigBundle {
  weirConfiguration: 1;
  exportedAt: string;
  lookups: Lookup[];
  rules: Rule[];
  tasks: Task[];
  pipelines: Pipeline[];
  topologies: Topology[];
}

/** The resource kinds in the order they are written (what a later kind refers to exists first). */
export const bundleKinds = resourceKindInfos.map((k) => k.path);
export type BundleKind = (typeof resourceKindInfos)[number]['path'];

export async function exportBundle(api: WeirClient): Promise<ConfigBundle> {
  const [lookups, rules, tasks, pipelines, topologies] = await Promise.all([
    api.lookups(),
    api.rules.list(),
    api.tasks.list(),
    api.pipelines.list(),
    api.topologies.list(),
  ]);
  return { weirConfiguration: 1, exportedAt: new Date().toISOString(), lookups, rules, tasks, pipelines, topologies };
}

/** Reads an exported file; says what is wrong and where when it is not one. */
export function readBundle(text: string): ConfigBundle {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`the file is not JSON: ${(err as Error).message}`, { cause: err });
  }
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    (value as { weirConfiguration?: unknown }).weirConfiguration !== 1
  ) {
    throw new Error(
      'the file is not a Weir configuration export (it needs "weirConfiguration": 1 and the lists lookups, rules, tasks, pipelines, topologies)',
    );
  }
  const b = value as Record<string, unknown>;
  for (const k of bundleKinds) {
    if (b[k] === undefined) b[k] = [];
    if (!Array.isArray(b[k])) throw new Error(`"${k}" must be an array`);
  }
  return b as unknown as ConfigBundle;
}

export interface ImportStep {
  kind: BundleKind;
  count: number;
  error?: string;
}

/**
 * Applies a bundle in dependency order: lookups (created, or replaced when the id exists), then
 * rules (their PDL may use lookups), tasks, pipelines and topologies, each kind in one bulk request
 * (all or none of that kind). Stops at the first refused kind and reports every step.
 */
export async function importBundle(
  api: WeirClient,
  bundle: ConfigBundle,
  errorText: (err: unknown) => string,
): Promise<ImportStep[]> {
  const steps: ImportStep[] = [];
  const run = async (kind: BundleKind, count: number, apply: () => Promise<unknown>): Promise<boolean> => {
    try {
      if (count > 0) await apply();
      steps.push({ kind, count });
      return true;
    } catch (err) {
      steps.push({ kind, count, error: errorText(err) });
      return false;
    }
  };
  const existing = new Set((await api.lookups()).map((l) => l.id));
  const lookupsDone = await run('lookups', bundle.lookups.length, async () => {
    for (const l of bundle.lookups) {
      const file = new Blob([JSON.stringify(l.content)], { type: 'application/json' });
      try {
        if (existing.has(l.id)) await api.replaceLookup(l.id, file, `${l.id}.json`);
        else await api.createLookup(l.id, file, `${l.id}.json`);
      } catch (err) {
        throw new Error(`lookup ${l.id}: ${errorText(err)}`, { cause: err });
      }
    }
  });
  const kinds: [BundleKind, number, () => Promise<unknown>][] = [
    ['rules', bundle.rules.length, () => api.rules.bulk(bundle.rules)],
    ['tasks', bundle.tasks.length, () => api.tasks.bulk(bundle.tasks)],
    ['pipelines', bundle.pipelines.length, () => api.pipelines.bulk(bundle.pipelines)],
    ['topologies', bundle.topologies.length, () => api.topologies.bulk(bundle.topologies)],
  ];
  if (!lookupsDone) return steps;
  for (const [kind, count, apply] of kinds) if (!(await run(kind, count, apply))) break;
  return steps;
}
