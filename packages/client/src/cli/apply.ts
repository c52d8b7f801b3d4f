import { isDeepStrictEqual } from 'node:util';
import { stringify } from 'yaml';
import type { WeirClient } from '../client.ts';
import { WeirApiError } from '../errors.ts';
import type { BrokerTopic, Pipeline, Rule, Task, Topology } from '../types.ts';
import { lineDiff } from './diff.ts';
import { kinds } from './kinds.ts';
import type { Manifest } from './manifests.ts';
import { findRecord, listRecords } from './records.ts';

type Row = Record<string, unknown>;
export type Outcome = 'created' | 'configured' | 'unchanged' | 'failed';

export interface ApplyReport {
  readonly counts: Record<Outcome, number>;
}

/** What a topic's settings can hold in an export: settings a user chooses, not every effective broker value. */
export const exportedTopicOptions = [
  'cleanup.policy',
  'retention.ms',
  'retention.bytes',
  'compression.type',
  'max.message.bytes',
  'min.insync.replicas',
];

/**
 * The fields a manifest gives are what counts, at every depth: fields the server adds (defaults such
 * as a topology endpoint's serdes) are not a difference. Arrays must have the same length. Topic
 * options are compared as text (the API returns every setting as a string).
 */
export function sameAs(current: unknown, spec: unknown, asText = false): boolean {
  if (asText && spec !== null && typeof spec !== 'object') return String(current) === String(spec);
  if (Array.isArray(spec))
    return Array.isArray(current) && current.length === spec.length && spec.every((v, i) => sameAs(current[i], v));
  if (spec && typeof spec === 'object') {
    if (!current || typeof current !== 'object' || Array.isArray(current)) return false;
    const cur = current as Row;
    return Object.entries(spec as Row).every(([k, v]) => sameAs(cur[k], v, asText || k === 'options'));
  }
  return isDeepStrictEqual(current, spec);
}

const label = (m: Manifest) => `${m.kind.kind.toLowerCase()}/${m.id}`;

async function write(weir: WeirClient, m: Manifest, current: Row | undefined, note?: string): Promise<void> {
  const s = m.spec;
  const n = Number(m.id);
  switch (m.kind.kind) {
    case 'Topic': {
      if (current) {
        throw new Error(
          `topic ${m.id} exists with other settings; the API cannot change a topic's partitions, replication or settings after creation (delete it and apply again)`,
        );
      }
      await weir.createTopic(s as unknown as BrokerTopic);
      return;
    }
    case 'Lookup': {
      const blob = new Blob([JSON.stringify(s.content ?? [])], { type: 'application/json' });
      if (current) await weir.replaceLookup(String(m.id), blob, `${m.id}.json`);
      else await weir.createLookup(String(m.id), blob, `${m.id}.json`);
      return;
    }
    case 'Rule':
      await (current
        ? weir.rules.update(String(m.id), s as unknown as Rule, note)
        : weir.rules.create(s as unknown as Rule, note));
      return;
    case 'Task':
      await (current
        ? weir.tasks.update(n, s as unknown as Task, note)
        : weir.tasks.create(s as unknown as Task, note));
      return;
    case 'Pipeline':
      await (current
        ? weir.pipelines.update(n, s as unknown as Pipeline, note)
        : weir.pipelines.create(s as unknown as Pipeline, note));
      return;
    case 'Topology':
      await (current
        ? weir.topologies.update(n, s as unknown as Topology, note)
        : weir.topologies.create(s as unknown as Topology, note));
      return;
    default:
      throw new Error(`${m.kind.kind} cannot be applied`);
  }
}

/**
 * Creates what is missing and updates what differs, in kind order (topics, lookups, rules, tasks,
 * pipelines, topologies: what a record refers to exists before it). A failure is reported with the
 * API's message and the manifest's place, and the others still go on; the caller exits 1.
 * With dryRun nothing is written: each change is shown as a diff of the record's YAML. `note` is the
 * change note of every rule, task, pipeline and topology written (topics and lookups keep no versions).
 */
export async function applyManifests(
  weir: WeirClient,
  manifests: readonly Manifest[],
  dryRun: boolean,
  out: (s: string) => void,
  err: (s: string) => void,
  note?: string,
): Promise<ApplyReport> {
  const order = (m: Manifest) => kinds.indexOf(m.kind);
  const sorted = [...manifests].sort((a, b) => order(a) - order(b));
  const seen = new Map<string, string>();
  for (const m of sorted) {
    const key = label(m);
    if (seen.has(key)) throw new Error(`${key} is given twice: ${seen.get(key)} and ${m.where}`);
    seen.set(key, m.where);
  }
  const counts: Record<Outcome, number> = { created: 0, configured: 0, unchanged: 0, failed: 0 };
  for (const m of sorted) {
    let outcome: Outcome;
    try {
      const current = await findRecord(weir, m.kind, m.id);
      outcome = !current ? 'created' : sameAs(current, m.spec) ? 'unchanged' : 'configured';
      if (dryRun) {
        out(`${key(m)} ${outcome} (dry run)\n`);
        if (outcome !== 'unchanged')
          out(lineDiff(current ? stringify(current) : '', stringify(current ? { ...current, ...m.spec } : m.spec)));
      } else {
        if (outcome !== 'unchanged') await write(weir, m, current, note);
        out(`${key(m)} ${outcome}\n`);
      }
    } catch (e) {
      outcome = 'failed';
      err(`error: ${key(m)} (${m.where}): ${describeError(e)}\n`);
    }
    counts[outcome]++;
  }
  return { counts };
}

const key = label;

/** The API's message and debugMessage, then each field's violation on its own line; or the error's own message. */
export function describeError(e: unknown): string {
  if (e instanceof WeirApiError) {
    const b = e.body;
    if (!b) return `${e.method} ${e.path} answered ${e.status}`;
    const fields = e.fieldErrors;
    const details = fields.length ? `\n  ${fields.join('\n  ')}` : '';
    return `${b.message}${b.debugMessage ? `: ${b.debugMessage}` : ''} (HTTP ${e.status})${details}`;
  }
  return (e as Error).message ?? String(e);
}

/** Internal topics (Kafka's, Kafka Streams', Weir's own) are not part of a backup. */
export function isUserTopic(name: string): boolean {
  return !name.startsWith('_') && !name.startsWith('weir_') && !/-(changelog|repartition)$/.test(name);
}

/** The whole configuration as manifests, in apply order. */
export async function exportManifests(weir: WeirClient): Promise<{ kind: string; spec: Row }[]> {
  const out: { kind: string; spec: Row }[] = [];
  for (const kind of kinds.filter((k) => k.manifest)) {
    let records: Row[];
    if (kind.kind === 'Topic') {
      const names = (await weir.topics()).filter(isUserTopic).sort();
      // a topic deleted between the list and its describe is no longer part of the configuration
      const described = await Promise.all(
        names.map((name) =>
          weir.topic(name).catch((e: unknown) => {
            if (e instanceof WeirApiError && e.status === 404) return undefined;
            throw e;
          }),
        ),
      );
      records = described
        .filter((t) => t !== undefined)
        .map((t) => {
          const options = Object.fromEntries(
            Object.entries(t.options ?? {}).filter(([k]) => exportedTopicOptions.includes(k)),
          );
          return {
            name: t.name,
            numberOfPartitions: t.numberOfPartitions,
            replicationFactor: t.replicationFactor,
            options,
          };
        });
    } else {
      records = await listRecords(weir, kind);
    }
    const byId = (r: Row) => r[kind.idField] as string | number;
    records.sort((a, b) => (byId(a) < byId(b) ? -1 : byId(a) > byId(b) ? 1 : 0));
    for (const spec of records) out.push({ kind: kind.kind, spec });
  }
  return out;
}
