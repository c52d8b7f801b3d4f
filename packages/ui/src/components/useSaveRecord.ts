import { notifications } from '@mantine/notifications';
import type { ResourceApi } from '@weir/client';
import type { KindInfo } from '@weir/contract';
import { useState } from 'react';
import { errorText, fieldErrors } from '../lib/errors.ts';
import { kindLabels } from '../lib/kind-labels.ts';

/**
 * Saves an editor's numbered record of `kind` (create when new, else update) and notifies `Task 3 saved`;
 * keeps the API's refusal and its per-field errors, and whether the record differs from the saved one.
 */
export function useSaveRecord<T extends { id: number }>(
  resource: ResourceApi<T, number>,
  kind: Pick<KindInfo, 'path' | 'names'>,
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
      notifications.show({ color: 'green', message: `${kindLabels(kind).record(stored.id)} saved` });
      onSaved(stored);
    } catch (err) {
      setError(errorText(err));
      setErrors(fieldErrors(err));
    }
  };
  return { save, error, errors, dirty: saved !== JSON.stringify(record) };
}
