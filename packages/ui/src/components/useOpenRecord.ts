import { useState } from 'react';
import { usePathId } from '../lib/path-id.ts';

/**
 * The record a list page has open in its drawer: the one its buttons opened (or a new one), else the
 * one its path links to (`/tasks/42`, the palette's link); `close` also goes back to the list path.
 */
export function useOpenRecord<T>(base: string, records: readonly T[] | undefined, idOf: (record: T) => string) {
  const [editing, setEditing] = useState<{ record: T; isNew: boolean }>();
  const link = usePathId(base);
  const linked = link.id === undefined ? undefined : records?.find((r) => idOf(r) === link.id);
  return {
    open: editing ?? (linked && { record: linked, isNew: false }),
    show: (record: T, isNew = false) => setEditing({ record, isNew }),
    close: () => {
      setEditing(undefined);
      if (link.id !== undefined) link.close();
    },
    /** The record the path links to, once the list has it. */
    linked,
    /** The id the path names when the loaded list has no such record. */
    notFound: link.id !== undefined && records && !linked ? link.id : undefined,
    /** Goes back to the list path. */
    closeLink: link.close,
  };
}
