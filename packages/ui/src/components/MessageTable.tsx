import { Box, Text } from '@mantine/core';
import type { ConsumedMessage } from '@weir/contract';
import { VirtualTable } from './VirtualTable.tsx';

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
  return (
    <Box>
      <VirtualTable
        label={label}
        headers={['Partition', 'Offset', 'Timestamp', 'Key', 'Value']}
        columns={columns}
        rowCount={messages.length}
        rowHeight={rowHeight}
        height={480}
        overscan={20}
        headerPadding="4px 8px"
        testId="message-scroller"
        renderRow={(index, row) => {
          const m = messages[index]!;
          return (
            <div
              key={index}
              {...row}
              data-testid="message-row"
              tabIndex={0}
              onClick={() => onSelect(m, index)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') onSelect(m, index);
              }}
              style={{
                ...row.style,
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
        }}
      />
      {messages.length === 0 && (
        <Text size="sm" p="sm">
          No messages.
        </Text>
      )}
    </Box>
  );
}
