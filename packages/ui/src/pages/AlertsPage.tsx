import { Alert, Badge, Button, Drawer, Group, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import type { ConsumedMessage } from '@weir/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../lib/api.ts';
import { countOf } from '../lib/kind-labels.ts';
import { techniqueName } from '../lib/attack.ts';
import { JsonTree } from '../components/JsonTree.tsx';
import { MessageTable, preview } from '../components/MessageTable.tsx';
import { download } from '../lib/download.ts';
import { errorText } from '../lib/errors.ts';
import { useMessageBuffer } from '../lib/useMessageBuffer.ts';

/** The rule and annotations of an alert, wherever the engine put them. */
function alertFacts(m: ConsumedMessage): { rule?: string; annotations: string[] } {
  const v = (
    typeof m.value === 'string'
      ? (() => {
          try {
            return JSON.parse(m.value as string) as Record<string, unknown>;
          } catch {
            return {};
          }
        })()
      : m.value
  ) as Record<string, unknown>;
  const meta = (v?._rule ?? v?.rule ?? v?._alert) as Record<string, unknown> | string | undefined;
  const rule =
    typeof meta === 'string' ? meta : ((meta?.id as string | undefined) ?? (v?.rule_id as string | undefined));
  const ann = (typeof meta === 'object' ? meta?.annotations : v?.annotations) as unknown;
  return { rule, annotations: Array.isArray(ann) ? ann.map(String) : [] };
}

/** Alerts: the alerts topic live (from the last hour on), filter, inspect, export. */
export default function AlertsPage() {
  const buffer = useMessageBuffer(100_000);
  const [live, setLive] = useState(true);
  const [error, setError] = useState<string>();
  const [filter, setFilter] = useState('');
  const [selected, setSelected] = useState<ConsumedMessage>();
  const abort = useRef<AbortController>(undefined);
  useEffect(() => {
    if (!live) return;
    const controller = new AbortController();
    abort.current = controller;
    buffer.clear();
    api
      .tail(undefined, { startTimestamp: Date.now() - 3_600_000 }, (m) => buffer.append([m]), controller.signal)
      .then(
        (reason) => {
          if (!controller.signal.aborted) {
            setError(`The live tail ended: ${reason}`);
            setLive(false);
          }
        },
        (err: unknown) => {
          setError(errorText(err));
          setLive(false);
        },
      );
    return () => controller.abort();
  }, [live]);
  const shown = useMemo(() => {
    const q = filter.toLowerCase();
    return q ? buffer.messages.filter((m) => preview(m.value).toLowerCase().includes(q)) : buffer.messages;
  }, [buffer.version, filter]);
  const facts = selected ? alertFacts(selected) : undefined;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Alerts</Title>
        <Group>
          <Switch label="Live" checked={live} onChange={(e) => setLive(e.currentTarget.checked)} />
          <Button
            variant="default"
            size="xs"
            disabled={shown.length === 0}
            onClick={() =>
              download('alerts.ndjson', shown.map((m) => JSON.stringify(m)).join('\n') + '\n', 'application/x-ndjson')
            }
          >
            Export NDJSON
          </Button>
        </Group>
      </Group>
      {error && (
        <Alert color="yellow" role="status">
          {error}
        </Alert>
      )}
      <Group>
        <TextInput
          aria-label="Filter alerts"
          placeholder="Filter by text"
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          w={320}
        />
        <Text size="sm" data-testid="alert-count">
          {countOf(shown.length, 'alert')} (last hour and live)
        </Text>
      </Group>
      <MessageTable messages={shown} onSelect={setSelected} label="Alerts" />
      <Drawer
        opened={selected !== undefined}
        onClose={() => setSelected(undefined)}
        position="right"
        size="xl"
        title="Alert"
      >
        {selected && facts && (
          <Stack>
            <Text>Rule: {facts.rule ?? 'unknown'}</Text>
            <Group gap={4}>
              {facts.annotations.map((a) => (
                <Badge key={a} variant="outline">
                  {a} {techniqueName(a) ?? ''}
                </Badge>
              ))}
            </Group>
            <JsonTree value={selected.value} label="Alert event" />
          </Stack>
        )}
      </Drawer>
    </Stack>
  );
}
