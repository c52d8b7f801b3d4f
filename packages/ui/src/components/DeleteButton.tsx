import { Button } from '@mantine/core';

/** A table row's Delete button, named after what it deletes (`Delete task 3`). */
export function DeleteButton({
  what,
  onClick,
  disabled,
  title,
}: {
  what: string;
  onClick: () => void;
  disabled?: boolean;
  title?: string;
}) {
  return (
    <Button
      size="compact-xs"
      variant="default"
      onClick={onClick}
      aria-label={`Delete ${what}`}
      disabled={disabled}
      title={title}
    >
      Delete
    </Button>
  );
}
