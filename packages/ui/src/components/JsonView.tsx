import { Code, SegmentedControl, Stack } from '@mantine/core';
import { useState } from 'react';

/** A value as an indented JSON tree (for JSON text or objects) or as raw text. */
export function JsonView({ value, label }: { value: unknown; label: string }) {
  const parsed = typeof value === 'string' ? tryParse(value) : value;
  const [mode, setMode] = useState<'tree' | 'raw'>(
    parsed !== undefined && typeof parsed === 'object' && parsed !== null ? 'tree' : 'raw',
  );
  const raw = typeof value === 'string' ? value : JSON.stringify(value);
  return (
    <Stack gap="xs">
      <SegmentedControl
        size="xs"
        aria-label={`${label} view`}
        value={mode}
        onChange={(v) => setMode(v as 'tree' | 'raw')}
        data={[
          { label: 'JSON', value: 'tree' },
          { label: 'Raw', value: 'raw' },
        ]}
      />
      <Code block aria-label={label} style={{ maxHeight: 400, overflow: 'auto' }}>
        {mode === 'tree' ? JSON.stringify(parsed, null, 2) : raw}
      </Code>
    </Stack>
  );
}

export function tryParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}
