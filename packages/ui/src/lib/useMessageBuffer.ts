import type { ConsumedMessage } from '@weir/contract';
import { useCallback, useRef, useState } from 'react';

/**
 * A bounded buffer of messages that grows without copying: appends land in an array kept in a
 * ref, and the page re-renders once per animation frame, however many arrived (live tail at
 * thousands per second stays responsive).
 */
export function useMessageBuffer(limit = 200_000) {
  const store = useRef<ConsumedMessage[]>([]);
  const [version, setVersion] = useState(0);
  const scheduled = useRef(false);
  // How many messages the bound has dropped from the head so far (filters that work incrementally restart then).
  const dropped = useRef(0);
  const flush = useCallback(() => {
    if (scheduled.current) return;
    scheduled.current = true;
    requestAnimationFrame(() => {
      scheduled.current = false;
      setVersion((v) => v + 1);
    });
  }, []);
  const append = useCallback(
    (items: readonly ConsumedMessage[]) => {
      const s = store.current;
      for (const m of items) s.push(m);
      if (s.length > limit) {
        dropped.current += s.length - limit;
        s.splice(0, s.length - limit);
      }
      flush();
    },
    [flush, limit],
  );
  const clear = useCallback(() => {
    store.current = [];
    setVersion((v) => v + 1);
  }, []);
  return { messages: store.current, version, dropped: dropped.current, append, clear };
}
