import type { StoredRule } from '@weir/contract';
import { compile } from '@weir/pdl';
import { domainError, isDomainError } from '../core/errors.ts';
import { flowCandidate, type BacktestCatalog } from './backtest-candidate.ts';
import { rulesSubject, type BacktestSubject } from './backtest-evaluator.ts';

export type { BacktestCatalog } from './backtest-candidate.ts';

/** Where a backtest reads: a topic range (times resolved to offsets when it starts) or the events sent. */
export type BacktestInput =
  | { readonly kind: 'times'; readonly topic: string; readonly from: number; readonly to: number }
  | {
      readonly kind: 'offsets';
      readonly topic: string;
      readonly offsets: ReadonlyMap<number, readonly [number, number]>;
    }
  | { readonly kind: 'events'; readonly events: readonly unknown[] };

export interface BacktestPlan {
  /** What the candidate is, for the audit trail: its rule ids, `pipeline 1 version 2`, `topology 3`. */
  readonly label: string;
  readonly candidate: BacktestSubject;
  /**
   * What is in force: the rules with the candidate rules' ids (a candidate rule that is not stored
   * has none); the pipeline or topology as stored now (nothing when there is none).
   */
  readonly current: BacktestSubject;
  /** The rules a result lists: the candidate rules; the rules a pipeline's or topology's APPLY_RULES tasks name, in order. */
  readonly rules: readonly string[];
  readonly input: BacktestInput;
  readonly first: number;
}

const invalid = (where: string, what: string) => domainError('BACKTEST_INVALID', `${where}: ${what}`);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const maxFirst = 1000;
const candidateShapes =
  'must be {rules: [...]} (rules inline, {id, pdl, …}, or by id and version, {id, version}), {pipeline: <id>, version?}, {pipeline: {id?, tasks: [...]}} or {topology: <id>, version?}';

/**
 * Checks a `POST /api/backtests` body field by field and resolves its candidate; every refusal is
 * BACKTEST_INVALID naming the field (`source.to`, `candidate.rules[1].version`, `candidate.pipeline`)
 * and what is wrong. The topic's existence and its offsets are checked by the caller (it needs Kafka).
 */
export function planBacktest(body: unknown, catalog: BacktestCatalog): BacktestPlan {
  if (!isObject(body)) throw invalid('body', 'must be an object {candidate, source}');
  for (const key of Object.keys(body))
    if (!['candidate', 'source', 'first'].includes(key))
      throw invalid(`body.${key}`, 'is not a field of a backtest request (accepted: candidate, source, first)');
  const first = body['first'] ?? 20;
  if (!Number.isInteger(first) || (first as number) < 0 || (first as number) > maxFirst)
    throw invalid('first', `must be a whole number from 0 to ${maxFirst}`);
  const value = body['candidate'];
  if (!isObject(value)) throw invalid('candidate', candidateShapes);
  const kinds = (['rules', 'pipeline', 'topology'] as const).filter((k) => k in value);
  if (kinds.length !== 1)
    throw invalid('candidate', kinds.length === 0 ? candidateShapes : `gives ${kinds.join(' and ')}; give one`);
  const kind = kinds[0]!;
  const accepted = kind === 'rules' ? ['rules'] : [kind, 'version'];
  for (const key of Object.keys(value))
    if (!accepted.includes(key))
      throw invalid(`candidate.${key}`, `is not a field of a ${kind} candidate (accepted: ${accepted.join(', ')})`);
  if (kind !== 'rules')
    return { ...flowCandidate(kind, value, catalog), input: inputOf(body['source']), first: first as number };
  const candidate = candidateRules(value['rules'], catalog);
  const current = candidate.flatMap((r) => {
    const stored = catalog.current<StoredRule>('rules', r.id);
    return stored ? [stored] : [];
  });
  return {
    label: candidate.map((r) => r.id).join(', '),
    candidate: rulesSubject(candidate),
    current: rulesSubject(current),
    rules: candidate.map((r) => r.id),
    input: inputOf(body['source']),
    first: first as number,
  };
}

function candidateRules(value: unknown, catalog: BacktestCatalog): StoredRule[] {
  if (!Array.isArray(value))
    throw invalid(
      'candidate.rules',
      'must be an array: rules inline ({id, pdl, …}) or by id and version ({id, version})',
    );
  const rules = value as unknown[];
  if (rules.length === 0) throw invalid('candidate.rules', 'is empty; name at least one rule');
  const seen = new Set<string>();
  return rules.map((r, i) => {
    const where = `candidate.rules[${i}]`;
    if (!isObject(r) || typeof r['id'] !== 'string' || r['id'] === '')
      throw invalid(`${where}.id`, 'is required: a rule id (string)');
    const id = r['id'];
    if (seen.has(id)) throw invalid(`${where}.id`, `rule '${id}' is listed twice`);
    seen.add(id);
    if ('version' in r) {
      const v = r['version'];
      if (!Number.isInteger(v) || (v as number) < 1)
        throw invalid(`${where}.version`, `'${String(v)}' is not a version number; versions are whole numbers from 1`);
      if ('pdl' in r) throw invalid(where, 'gives both version and pdl; give one');
      let stored: StoredRule | undefined;
      try {
        stored = catalog.version('rules', id, v as number) as StoredRule | undefined;
      } catch (err) {
        if (isDomainError(err)) throw invalid(`${where}.version`, err.message);
        throw err;
      }
      if (stored === undefined)
        throw invalid(
          `${where}.version`,
          `version ${String(v)} of rule '${id}' records its deletion and holds no rule`,
        );
      return stored;
    }
    if (typeof r['pdl'] !== 'string')
      throw invalid(`${where}.pdl`, 'is required for an inline rule (or give version for a stored one)');
    try {
      compile(r['pdl'], { lookups: catalog.lookups });
    } catch (err) {
      throw invalid(`${where}.pdl`, `rule '${id}' does not compile: ${(err as Error).message}`);
    }
    if (
      'annotations' in r &&
      !(Array.isArray(r['annotations']) && r['annotations'].every((a) => typeof a === 'string'))
    )
      throw invalid(`${where}.annotations`, 'must be an array of strings');
    return {
      name: id,
      description: '',
      annotations: [],
      enabled: true,
      ...r,
    } as unknown as StoredRule;
  });
}

/** ISO 8601 text or epoch milliseconds. */
function timeOf(value: unknown, where: string): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value !== '') {
    const t = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
    if (Number.isFinite(t)) return t;
  }
  throw invalid(
    where,
    `${JSON.stringify(value)} is not a time: give ISO 8601 text (2021-03-14T09:00:00Z) or epoch milliseconds`,
  );
}

function inputOf(value: unknown): BacktestInput {
  if (!isObject(value))
    throw invalid(
      'source',
      'must be {topic, from, to}, {topic, offsets: {partition: [start, end]}} or {events: [...]}',
    );
  if ('events' in value) {
    const events = value['events'];
    if (!Array.isArray(events)) throw invalid('source.events', 'must be an array of events');
    events.forEach((e, i) => {
      if (!isObject(e)) throw invalid(`source.events[${i}]`, 'must be a JSON object (an event)');
    });
    return { kind: 'events', events };
  }
  const topic = value['topic'];
  if (typeof topic !== 'string' || topic === '') throw invalid('source.topic', 'is required: the topic to read');
  if ('offsets' in value) {
    const offsets = value['offsets'];
    if (!isObject(offsets) || Object.keys(offsets).length === 0)
      throw invalid('source.offsets', 'must be {"<partition>": [start, end]} with at least one partition');
    const map = new Map<number, readonly [number, number]>();
    for (const [p, range] of Object.entries(offsets)) {
      const where = `source.offsets.${p}`;
      if (!/^\d+$/.test(p)) throw invalid(where, `'${p}' is not a partition number`);
      if (!Array.isArray(range) || range.length !== 2 || !range.every((o) => Number.isInteger(o) && o >= 0))
        throw invalid(where, 'must be [start, end]: offsets, whole numbers from 0 (start included, end excluded)');
      const [start, end] = range as [number, number];
      if (end < start) throw invalid(where, `the end offset ${end} is before the start offset ${start}`);
      map.set(Number(p), [start, end]);
    }
    return { kind: 'offsets', topic, offsets: map };
  }
  if (!('from' in value) || !('to' in value))
    throw invalid('source', 'a topic source needs from and to (times) or offsets (per partition)');
  const from = timeOf(value['from'], 'source.from');
  const to = timeOf(value['to'], 'source.to');
  if (to < from)
    throw invalid(
      'source.to',
      `the end ${new Date(to).toISOString()} is before the start ${new Date(from).toISOString()} (source.from)`,
    );
  return { kind: 'times', topic, from, to };
}
