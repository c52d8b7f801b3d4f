import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

/** A table's header row: one cell per header, in order; a `false` header (a column shown to admins only) is left out. */
export function TableHead({ headers }: { headers: readonly (ReactNode | false)[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {headers
          .filter((h) => h !== false)
          .map((h, i) => (
            <Table.Th key={i}>{h}</Table.Th>
          ))}
      </Table.Tr>
    </Table.Thead>
  );
}
