import { notifications } from '@mantine/notifications';
import type { ResourceApi } from '@weir/client';
import { useState } from 'react';
import { errorText, fieldErrors } from '../lib/errors.ts';

/**
 * Saves an editor's numbered record (create when new, else update) and notifies `${kind} ${id} saved`;
 * keeps the API's refusal and its per-field errors, and whether the record differs from the saved one.
 */
export function useSaveRecord<T extends { id: number }>(
  resource: ResourceApi<T, number>,
  kind: string,
  record: T,
  isNew: boolean,
  onSaved: (stored: T) => void,
) {
  const [saved, setSaved] = useState(() => (isNew ? undefined : JSON.stringify(record)));
  const [error, setError] = useState<string>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = async () => {
    try {
      const stored = isNew ? await resource.create(record) : await resource.update(record.id, record);
      setError(undefined);
      setErrors({});
      setSaved(JSON.stringify(stored));
      notifications.show({ color: 'green', message: `${kind} ${stored.id} saved` });
      onSaved(stored);
    } catch (err) {
      setError(errorText(err));
      setErrors(fieldErrors(err));
    }
  };
  return { save, error, errors, dirty: saved !== JSON.stringify(record) };
}
