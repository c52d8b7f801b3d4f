import { ActionIcon, Button, Code, Group, SegmentedControl, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { formatPath, type PathSegment } from '../lib/json-path.ts';

/** Nodes deeper than this start collapsed; an object or array shows at most this many children. */
const openDepth = 3;
const maxChildren = 500;

/**
 * A value as a collapsible JSON tree (JSON text is parsed), or as raw text: each object and array
 * folds, and every node has buttons to copy its path (`$.user.name`) or its value (JSON text; a
 * string as it is). A value that is not JSON shows as text.
 */
export function JsonTree({ value, label }: { value: unknown; label: string }) {
  const parsed = typeof value === 'string' ? parseJson(value) : value;
  const isTree = parsed !== null && typeof parsed === 'object';
  const [mode, setMode] = useState<'tree' | 'raw'>(isTree ? 'tree' : 'raw');
  // Paths toggled away from their default (open above openDepth); `all` overrides everything.
  const [toggled, setToggled] = useState<Record<string, boolean>>({});
  const [all, setAll] = useState<boolean | undefined>(undefined);
  const raw = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  const isOpen = (path: string, depth: number) => toggled[path] ?? all ?? depth < openDepth;
  const toggle = (path: string, depth: number) => setToggled({ ...toggled, [path]: !isOpen(path, depth) });
  const setEvery = (open: boolean) => {
    setToggled({});
    setAll(open);
  };
  return (
    <Stack gap="xs">
      {isTree && (
        <Group gap="xs">
          <SegmentedControl
            size="xs"
            aria-label={`${label} view`}
            value={mode}
            onChange={(v) => setMode(v as 'tree' | 'raw')}
            data={[
              { label: 'Tree', value: 'tree' },
              { label: 'Raw', value: 'raw' },
            ]}
          />
          {mode === 'tree' && (
            <>
              <Button size="compact-xs" variant="default" onClick={() => setEvery(true)}>
                Expand all
              </Button>
              <Button size="compact-xs" variant="default" onClick={() => setEvery(false)}>
                Collapse all
              </Button>
            </>
          )}
        </Group>
      )}
      {mode === 'tree' && isTree ? (
        <div
          aria-label={label}
          role="region"
          style={{ maxHeight: 480, overflow: 'auto', fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 }}
        >
          <Node name={undefined} path={[]} value={parsed} depth={0} isOpen={isOpen} toggle={toggle} />
        </div>
      ) : (
        <Code block aria-label={label} style={{ maxHeight: 480, overflow: 'auto' }}>
          {raw}
        </Code>
      )}
    </Stack>
  );
}

interface NodeProps {
  name: PathSegment | undefined;
  path: readonly PathSegment[];
  value: unknown;
  depth: number;
  isOpen: (path: string, depth: number) => boolean;
  toggle: (path: string, depth: number) => void;
}

function Node({ name, path, value, depth, isOpen, toggle }: NodeProps) {
  const text = formatPath(path);
  const container = value !== null && typeof value === 'object';
  const entries: [PathSegment, unknown][] = !container
    ? []
    : Array.isArray(value)
      ? value.map((v, i) => [i, v])
      : Object.entries(value as Record<string, unknown>);
  const open = container && isOpen(text, depth);
  const key =
    name === undefined ? null : (
      <span style={{ color: 'var(--weir-json-key, var(--mantine-color-blue-text))' }}>
        {typeof name === 'number' ? name : JSON.stringify(name)}:{' '}
      </span>
    );
  const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  return (
    <div data-path={text} style={{ paddingLeft: depth === 0 ? 0 : 16 }}>
      <Group gap={4} wrap="nowrap" className="weir-json-row">
        {container ? (
          <button
            type="button"
            aria-expanded={open}
            aria-label={`${open ? 'Collapse' : 'Expand'} ${text}`}
            onClick={() => toggle(text, depth)}
            style={{ border: 0, background: 'none', padding: 0, cursor: 'pointer', font: 'inherit', color: 'inherit' }}
          >
            {open ? '▾' : '▸'} {key}
            <Text span ff="monospace" size="sm">
              {summary}
            </Text>
          </button>
        ) : (
          <span>
            {key}
            <Leaf value={value} />
          </span>
        )}
        <CopyButton what="path" label={text} text={text} />
        <CopyButton
          what="value"
          label={text}
          text={typeof value === 'string' ? value : JSON.stringify(value, null, 2)}
        />
      </Group>
      {open && (
        <div role="group" aria-label={`Fields of ${text}`}>
          {entries.slice(0, maxChildren).map(([k, v]) => (
            <Node key={k} name={k} path={[...path, k]} value={v} depth={depth + 1} isOpen={isOpen} toggle={toggle} />
          ))}
          {entries.length > maxChildren && (
            <Text size="sm" pl={16}>
              … {entries.length - maxChildren} more (see Raw)
            </Text>
          )}
        </div>
      )}
    </div>
  );
}

function Leaf({ value }: { value: unknown }) {
  const color =
    typeof value === 'string'
      ? 'var(--mantine-color-green-text)'
      : typeof value === 'number'
        ? 'var(--mantine-color-orange-text)'
        : 'var(--mantine-color-violet-text)';
  return <span style={{ color, wordBreak: 'break-all' }}>{JSON.stringify(value)}</span>;
}

function CopyButton({ what, label, text }: { what: 'path' | 'value'; label: string; text: string }) {
  const name = what === 'path' ? `Copy path ${label}` : `Copy value of ${label}`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      notifications.show({
        color: 'green',
        message: what === 'path' ? `Copied ${text}` : `Copied the value of ${label}`,
      });
    } catch (err) {
      notifications.show({ color: 'red', title: 'Copy failed', message: (err as Error).message });
    }
  };
  return (
    <Tooltip label={name} openDelay={400}>
      <ActionIcon size="xs" variant="subtle" color="gray" aria-label={name} onClick={() => void copy()}>
        {what === 'path' ? '$' : '⧉'}
      </ActionIcon>
    </Tooltip>
  );
}

function parseJson(s: string): unknown {
  if (!/^\s*[[{]/.test(s)) return undefined;
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}
