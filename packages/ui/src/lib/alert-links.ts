import type { AlertView } from '@weir/client';
import type { EntityField } from './alert-entity.ts';

/** `/silences/new?match=…`: the alert's rule and its entity fields as `=` matchers (the Silences page's form). */
export function silenceSimilarUrl(alert: Pick<AlertView, 'rule'>, entity: readonly EntityField[]): string {
  const matchers = [
    ...(alert.rule.id === null ? [] : [{ field: '_rule.id', value: alert.rule.id }]),
    ...entity.map((e) => ({ field: e.path, value: e.value })),
  ];
  const params = new URLSearchParams();
  for (const m of matchers) params.append('match', `${m.field}=${m.value}`);
  return `/silences/new?${params.toString()}`;
}

/** The message browser at the alert's source record (`/messages?topic=&partition=&offset=`), or undefined without one. */
export function sourceUrl(source: unknown): string | undefined {
  const s = source as { topic?: unknown; partition?: unknown; offset?: unknown } | null;
  if (!s || typeof s.topic !== 'string' || typeof s.partition !== 'number' || typeof s.offset !== 'number')
    return undefined;
  return `/messages?${new URLSearchParams({ topic: s.topic, partition: String(s.partition), offset: String(s.offset) })}`;
}
