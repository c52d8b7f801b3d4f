import { useEffect, useMemo, useRef } from 'react';
import { api } from '../lib/api.ts';
import type { LintSample, PdlLintSource } from './pdlLint.ts';

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
