import { UnstyledButton } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type CSSProperties, type ReactNode } from 'react';

/** What a row of a VirtualTable spreads on its element: its ARIA role and index, and its place in the grid. */
export interface VirtualRow {
  role: 'row';
  'aria-rowindex': number;
  style: CSSProperties;
}

/** A header that sorts its column: its order now (`aria-sort`) and what a click does. */
export interface SortableHeader {
  label: string;
  sort: 'ascending' | 'descending' | 'none';
  onSort: () => void;
}

/** A virtualised ARIA table in a scroll box: a sticky header row, and only the visible rows in the page. */
export function VirtualTable({
  label,
  headers,
  columns,
  rowCount,
  rowHeight,
  height,
  overscan,
  gap,
  headerPadding,
  testId,
  scrollToIndex,
  renderRow,
}: {
  label: string;
  /** Column headers: text, or a button sorting the column (its `aria-sort` on the header cell). */
  headers: readonly (string | SortableHeader)[];
  /** The CSS grid template of the header and of every row. */
  columns: string;
  rowCount: number;
  rowHeight: number;
  height: number;
  overscan: number;
  gap?: number;
  headerPadding: string;
  testId?: string;
  /** A row to bring into view (centred) whenever this index changes; none when absent or negative. */
  scrollToIndex?: number;
  renderRow: (index: number, row: VirtualRow) => ReactNode;
}) {
  const parent = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => parent.current,
    estimateSize: () => rowHeight,
    overscan,
  });
  useEffect(() => {
    if (scrollToIndex !== undefined && scrollToIndex >= 0)
      virtualizer.scrollToIndex(scrollToIndex, { align: 'center' });
  }, [scrollToIndex, virtualizer]);
  return (
    <div
      role="table"
      aria-label={label}
      aria-rowcount={rowCount + 1}
      ref={parent}
      tabIndex={0}
      data-testid={testId}
      style={{
        height,
        overflow: 'auto',
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 4,
      }}
    >
      <div role="rowgroup" style={{ position: 'sticky', top: 0, zIndex: 1, background: 'var(--mantine-color-body)' }}>
        <div
          role="row"
          aria-rowindex={1}
          style={{
            display: 'grid',
            gridTemplateColumns: columns,
            gap,
            fontWeight: 600,
            padding: headerPadding,
            borderBottom: '1px solid var(--mantine-color-default-border)',
          }}
        >
          {headers.map((h) =>
            typeof h === 'string' ? (
              <span key={h} role="columnheader">
                {h}
              </span>
            ) : (
              <span key={h.label} role="columnheader" aria-sort={h.sort}>
                <UnstyledButton fw={600} fz="inherit" onClick={h.onSort}>
                  {h.label}
                  <span aria-hidden="true">{h.sort === 'ascending' ? ' ▲' : h.sort === 'descending' ? ' ▼' : ''}</span>
                </UnstyledButton>
              </span>
            ),
          )}
        </div>
      </div>
      <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) =>
          renderRow(item.index, {
            role: 'row',
            'aria-rowindex': item.index + 2,
            style: {
              position: 'absolute',
              top: 0,
              left: 0,
              right: 0,
              height: rowHeight,
              transform: `translateY(${item.start}px)`,
              display: 'grid',
              gridTemplateColumns: columns,
              gap,
            },
          }),
        )}
      </div>
    </div>
  );
}
