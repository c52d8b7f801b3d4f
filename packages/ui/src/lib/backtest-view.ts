import type { BacktestProgress, Pipeline, Task } from '@weir/contract';
import { sourceUrl } from './alert-links.ts';

/**
 * What the rule editor's Backtest tab computes (components/BacktestPanel.tsx): the range of a
 * preset or of typed times, the topic it offers first, progress as words, and each alert of a diff
 * set as a row (time, key fields, a link to its source record).
 */

export const rangePresets = [
  { value: '15m', label: 'Last 15 minutes', ms: 15 * 60_000 },
  { value: '1h', label: 'Last hour', ms: 3_600_000 },
  { value: '24h', label: 'Last 24 hours', ms: 86_400_000 },
  { value: 'custom', label: 'Custom', ms: 0 },
] as const;
export type RangePreset = (typeof rangePresets)[number]['value'];

export interface TimeRange {
  readonly from: number;
  readonly to: number;
}

/** A preset's range ending `now` (epoch ms); both ends as the API takes them (included). */
export function presetRange(preset: Exclude<RangePreset, 'custom'>, now: number): TimeRange {
  const { ms } = rangePresets.find((p) => p.value === preset)!;
  return { from: now - ms, to: now };
}

/**
 * The range of two typed times (a `datetime-local` field's `YYYY-MM-DDTHH:mm`, read in the browser's
 * time zone, or ISO 8601 with a zone); an error naming the field when one is missing, not a time,
 * or the end is before the start.
 */
export function customRange(from: string, to: string): TimeRange {
  const read = (label: string, text: string) => {
    if (!text.trim()) throw new Error(`${label}: give a date and time`);
    const ms = new Date(text.trim()).getTime();
    if (Number.isNaN(ms)) throw new Error(`${label}: '${text}' is not a date and time`);
    return ms;
  };
  const range = { from: read('From', from), to: read('To', to) };
  if (range.to < range.from)
    throw new Error(
      `To: the end (${new Date(range.to).toISOString()}) is before the start (${new Date(range.from).toISOString()})`,
    );
  return range;
}

/** The value of a `datetime-local` field for `ms`, in the browser's time zone (minutes). */
export function localInputValue(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

/**
 * The input topics of the topologies that run the rule (a pipeline of theirs has an APPLY_RULES
 * task listing its id), in topology order, each once.
 */
export function ruleInputTopics(
  ruleId: string,
  tasks: readonly { readonly id: Task['id']; readonly function: string; readonly definition: object }[],
  pipelines: readonly { readonly id: Pipeline['id']; readonly tasks: readonly number[] }[],
  topologies: readonly { readonly pipelines: readonly number[]; readonly input: { readonly name: string } }[],
): string[] {
  const applying = new Set(
    tasks
      .filter((t) => t.function === 'APPLY_RULES')
      .filter((t) => {
        const rules = (t.definition as { rules?: unknown }).rules;
        return Array.isArray(rules) && rules.includes(ruleId);
      })
      .map((t) => t.id),
  );
  const running = new Set(pipelines.filter((p) => p.tasks.some((t) => applying.has(t))).map((p) => p.id));
  const topics = topologies.filter((t) => t.pipelines.some((p) => running.has(p))).map((t) => t.input.name);
  return [...new Set(topics)];
}

/** The topic offered first: the rule's input topic when known and listed, else the first topic not internal (`_…`, `weir_…`). */
export function defaultTopic(inputTopics: readonly string[], topics: readonly string[]): string | null {
  const listed = new Set(topics);
  const input = inputTopics.find((t) => listed.has(t));
  if (input !== undefined) return input;
  return topics.find((t) => !t.startsWith('_') && !t.startsWith('weir_')) ?? topics[0] ?? null;
}

/** "1,234 events read · 40% of the range · 5,000 events/s". */
export function progressText(p: BacktestProgress): string {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  return `${n(p.eventsRead)} events read · ${Math.floor(p.share * 100)}% of the range · ${n(p.eventsPerSecond)} events/s`;
}

export interface AlertRow {
  readonly id: string;
  readonly rule: string;
  /** ISO 8601 (UTC) of `_alert.time`, or '' without one. */
  readonly time: string;
  /** The alert's own fields (not `_…`), `name=value`, objects flattened one level. */
  readonly fields: string;
  /** The message browser at the source record, or undefined without one. */
  readonly source: string | undefined;
  readonly sourceLabel: string;
}

const keyFieldCount = 6;

/** One alert record (as the alerts topic carries it, with `_alert` and `_rule`) as a row. */
export function alertRow(alert: Record<string, unknown>): AlertRow {
  const meta = (alert['_alert'] ?? {}) as { id?: unknown; time?: unknown; source?: unknown };
  const rule = (alert['_rule'] ?? {}) as { id?: unknown };
  const time = typeof meta.time === 'number' ? new Date(meta.time).toISOString() : '';
  const s = meta.source as { topic?: string; partition?: number; offset?: number } | null | undefined;
  const source = sourceUrl(s);
  return {
    id: String(meta.id ?? ''),
    rule: String(rule.id ?? ''),
    time,
    fields: keyFields(alert).join(' '),
    source,
    sourceLabel: source ? `${s!.topic} / ${s!.partition} / ${s!.offset}` : '',
  };
}

function keyFields(alert: Record<string, unknown>): string[] {
  const out: string[] = [];
  const add = (name: string, value: unknown) => {
    if (value === null || typeof value !== 'object') out.push(`${name}=${JSON.stringify(value)}`);
  };
  for (const [name, value] of Object.entries(alert)) {
    if (name.startsWith('_')) continue;
    if (value && typeof value === 'object' && !Array.isArray(value))
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) add(`${name}.${k}`, v);
    else add(name, value);
  }
  return out.slice(0, keyFieldCount);
}
