import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useActionError } from './dialog.ts';
import { ErrorAlert } from './ErrorAlert.tsx';

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
  const { error, attempt, clear } = useActionError();
  const confirm = () => attempt(onConfirm);
  return (
    <Modal
      opened={what !== undefined}
      onClose={() => {
        clear();
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
