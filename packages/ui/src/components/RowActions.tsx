import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { DeleteButton } from './DeleteButton.tsx';

/** A record row's actions: any buttons of its own, then View (Edit for an admin) and, for an admin, Delete. */
export function RowActions({
  what,
  isAdmin,
  onOpen,
  onDelete,
  children,
}: {
  what: string;
  isAdmin: boolean;
  onOpen: () => void;
  onDelete: () => void;
  children?: ReactNode;
}) {
  return (
    <Group gap="xs">
      {children}
      <Button size="compact-xs" variant="outline" onClick={onOpen} aria-label={`${isAdmin ? 'Edit' : 'View'} ${what}`}>
        {isAdmin ? 'Edit' : 'View'}
      </Button>
      {isAdmin && <DeleteButton what={what} onClick={onDelete} />}
    </Group>
  );
}
