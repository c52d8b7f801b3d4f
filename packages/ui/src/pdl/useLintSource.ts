import { useEffect, useMemo, useRef } from 'react';
import { api } from '../lib/api.ts';
import type { PdlLintSource } from './pdlLint.ts';

/** What the never-seen-field check compares with: the editor's sample events, or a topic the server reads. */
export type LintSample = readonly unknown[] | { readonly topic: string; readonly sample?: number } | undefined;

/**
 * The editor's sample for the lint: the test panel's events when it has some (what the rule is
 * tested with), else the picked topic (the server reads its `count` most recent records, at most
 * 1000), else none (no field is checked).
 */
export function lintSampleOf(events: readonly unknown[], topic: string | null, count: number): LintSample {
  if (events.length > 0) return events;
  if (topic) return Number.isInteger(count) && count >= 1 ? { topic, sample: Math.min(count, 1000) } : { topic };
  return undefined;
}

/**
 * The lint source of a PDL editor (pdlLint.ts): a stable object that lints with the latest sample
 * and tells the editor when the sample changes.
 */
export function useLintSource(sample: LintSample): PdlLintSource {
  const current = useRef(sample);
  current.current = sample;
  const listeners = useRef(new Set<() => void>());
  const source = useMemo<PdlLintSource>(
    () => ({
      lint: (text) => api.lintPdl(text, current.current),
      onSampleChange: (listener) => {
        listeners.current.add(listener);
        return () => void listeners.current.delete(listener);
      },
    }),
    [],
  );
  const key = Array.isArray(sample) ? sample : JSON.stringify(sample ?? null);
  useEffect(() => {
    for (const listener of listeners.current) listener();
  }, [key]);
  return source;
}
