import { Button, Group, Text } from '@mantine/core';
import { ErrorAlert } from './ErrorAlert.tsx';

/** An editor's foot: the API's refusal, then (unless read-only) `Save {what}` and, when asked, "Unsaved changes". */
export function SaveBar({
  what,
  error,
  readOnly,
  unsaved = false,
  onSave,
}: {
  what: string;
  error: string | undefined;
  readOnly: boolean;
  unsaved?: boolean;
  onSave: () => void;
}) {
  return (
    <>
      <ErrorAlert error={error} title={`The ${what} was refused`} />
      {!readOnly && (
        <Group>
          <Button onClick={onSave}>{`Save ${what}`}</Button>
          {unsaved && <Text size="sm">Unsaved changes</Text>}
        </Group>
      )}
    </>
  );
}
