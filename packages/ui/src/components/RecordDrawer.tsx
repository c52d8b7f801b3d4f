import { Drawer, type DrawerProps } from '@mantine/core';
import type { ReactNode } from 'react';

/** The right-side drawer a list page shows one record in, to edit or to view. */
export function RecordDrawer({
  opened,
  onClose,
  title,
  size = 'xl',
  children,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  size?: DrawerProps['size'];
  children: ReactNode;
}) {
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size={size} title={title}>
      {children}
    </Drawer>
  );
}
