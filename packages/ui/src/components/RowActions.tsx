import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { DeleteButton } from './DeleteButton.tsx';

/**
 * A record row's actions: any buttons of its own (`children`), then View (Edit for an admin, when
 * the record is `editable`), the `trailing` buttons and, for an admin, Delete.
 */
export function RowActions({
  what,
  isAdmin,
  editable = true,
  onOpen,
  onDelete,
  children,
  trailing,
}: {
  what: string;
  isAdmin: boolean;
  editable?: boolean;
  onOpen: () => void;
  onDelete: () => void;
  children?: ReactNode;
  trailing?: ReactNode;
}) {
  const open = isAdmin && editable ? 'Edit' : 'View';
  return (
    <Group gap="xs">
      {children}
      <Button size="compact-xs" variant="outline" onClick={onOpen} aria-label={`${open} ${what}`}>
        {open}
      </Button>
      {trailing}
      {isAdmin && <DeleteButton what={what} onClick={onDelete} />}
    </Group>
  );
}
