import { Box, Text } from '@mantine/core';
import type { ConsumedMessage } from '@weir/client';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';

const rowHeight = 30;
const columns = '90px 110px 200px 160px 1fr';

export function preview(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s === undefined ? '' : s.length > 300 ? `${s.slice(0, 300)}…` : s;
}

/**
 * Messages as a virtualised table: only the visible rows are in the page, so 100,000 messages
 * scroll as smoothly as 100 (bench/ui.ts measures it).
 */
export function MessageTable({
  messages,
  onSelect,
  label,
}: {
  messages: readonly ConsumedMessage[];
  onSelect: (m: ConsumedMessage, index: number) => void;
  label: string;
}) {
  const parent = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => parent.current,
    estimateSize: () => rowHeight,
    overscan: 20,
  });
  return (
    <Box>
      <div
        role="table"
        aria-label={label}
        aria-rowcount={messages.length + 1}
        ref={parent}
        tabIndex={0}
        data-testid="message-scroller"
        style={{
          height: 480,
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
              fontWeight: 600,
              padding: '4px 8px',
              borderBottom: '1px solid var(--mantine-color-default-border)',
            }}
          >
            <span role="columnheader">Partition</span>
            <span role="columnheader">Offset</span>
            <span role="columnheader">Timestamp</span>
            <span role="columnheader">Key</span>
            <span role="columnheader">Value</span>
          </div>
        </div>
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const m = messages[item.index]!;
            return (
              <div
                key={item.key}
                role="row"
                aria-rowindex={item.index + 2}
                data-testid="message-row"
                tabIndex={0}
                onClick={() => onSelect(m, item.index)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') onSelect(m, item.index);
                }}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  height: rowHeight,
                  transform: `translateY(${item.start}px)`,
                  display: 'grid',
                  gridTemplateColumns: columns,
                  padding: '4px 8px',
                  cursor: 'pointer',
                  whiteSpace: 'nowrap',
                  overflow: 'hidden',
                  fontFamily: 'var(--mantine-font-family-monospace)',
                  fontSize: 13,
                }}
              >
                <span role="cell">{m.partition}</span>
                <span role="cell">{m.offset}</span>
                <span role="cell">{m.timestamp === undefined ? '' : new Date(m.timestamp).toISOString()}</span>
                <span role="cell" style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                  {preview(m.key)}
                </span>
                <span role="cell" style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                  {preview(m.value)}
                </span>
              </div>
            );
          })}
        </div>
      </div>
      {messages.length === 0 && (
        <Text size="sm" p="sm">
          No messages.
        </Text>
      )}
    </Box>
  );
}
