import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { ErrorAlert } from './ErrorAlert.tsx';
import { errorText } from '../errors.ts';

/**
 * Asks before a delete; shows the API's refusal in the dialog. `message` and `confirmLabel` replace
 * the default words.
 */
export function ConfirmDelete({
  what,
  onClose,
  onConfirm,
  message,
  confirmLabel = 'Delete',
}: {
  what: string | undefined;
  onClose: () => void;
  onConfirm: () => Promise<void>;
  message?: ReactNode;
  confirmLabel?: string;
}) {
  const [error, setError] = useState<string>();
  const confirm = async () => {
    try {
      await onConfirm();
      setError(undefined);
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <Modal
      opened={what !== undefined}
      onClose={() => {
        setError(undefined);
        onClose();
      }}
      title={`Delete ${what ?? ''}`}
    >
      <Stack>
        <ErrorAlert error={error} />
        <Text size="sm">{message ?? <>Delete {what}? This cannot be undone.</>}</Text>
        <Group>
          <Button color="red.9" onClick={() => void confirm()}>
            {confirmLabel}
          </Button>
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The next free integer id of a list of records (tasks, pipelines, topologies). */
export function nextId(records: readonly { id: number }[] | undefined): number {
  return (records ?? []).reduce((m, r) => Math.max(m, r.id), 0) + 1;
}
