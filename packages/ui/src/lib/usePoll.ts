import { useEffect, useRef, useState } from 'react';
import { errorText } from './errors.ts';

/** Calls `load` now and every `ms`; keeps the last value and the last error. */
export function usePoll<T>(
  load: () => Promise<T>,
  ms: number,
  deps: unknown[] = [],
): { data: T | undefined; error: string | undefined; reload: () => void } {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    let live = true;
    const run = () =>
      loadRef.current().then(
        (d) => {
          if (live) {
            setData(d);
            setError(undefined);
          }
        },
        (e: unknown) => {
          if (live) setError(errorText(e));
        },
      );
    void run();
    const timer = ms > 0 ? setInterval(run, ms) : undefined;
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [ms, tick, ...deps]);
  return { data, error, reload: () => setTick((t) => t + 1) };
}
