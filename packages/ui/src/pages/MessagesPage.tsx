import {
  Badge,
  Button,
  Code,
  Drawer,
  Grid,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Tabs,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { TailQuery } from '@weir/client';
import type { ConsumedMessage, ConsumeRequest, Lookup } from '@weir/contract';
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../lib/api.ts';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { JsonTree } from '../components/JsonTree.tsx';
import { MessageTable } from '../components/MessageTable.tsx';
import { download } from '../lib/download.ts';
import { errorText } from '../lib/errors.ts';
import { useSession } from '../lib/session.tsx';
import { useMessageBuffer } from '../lib/useMessageBuffer.ts';
import { usePoll } from '../lib/usePoll.ts';
import { IncrementalFilter, pdlFilter, textFilter, type PdlFilter } from './message-filter.ts';
import { exported, headerSearch, jsonPathSearch } from './message-search.ts';

type Mode = 'earliest' | 'latest' | 'offset' | 'timestamp';
type FilterMode = 'text' | 'pdl' | 'path' | 'header';

/** `YYYY-MM-DDTHH:MM:SS` of a time in the browser's zone (what a datetime-local field holds). */
function localInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 19);
}

const timePresets = [
  { label: '15 min ago', ms: 15 * 60_000 },
  { label: '1 hour ago', ms: 60 * 60_000 },
  { label: '24 hours ago', ms: 24 * 60 * 60_000 },
] as const;

/**
 * The message browser: read from a start position or tail live, inspect, filter, produce, export.
 * `?topic=` chooses the topic; `&partition=&offset=` too (an alert's source record) reads from there at once.
 */
export default function MessagesPage() {
  const { isAdmin } = useSession();
  const topics = usePoll(() => api.topics(), 0);
  const [linked] = useState(() => new URLSearchParams(window.location.search));
  const [topic, setTopic] = useState<string | null>(() => linked.get('topic'));
  const linkedOffset = /^\d+$/.test(linked.get('offset') ?? '') ? Number(linked.get('offset')) : undefined;
  const [mode, setMode] = useState<Mode>(linkedOffset === undefined ? 'earliest' : 'offset');
  const [offset, setOffset] = useState<number | string>(linkedOffset ?? 0);
  const [time, setTime] = useState('');
  const [partition, setPartition] = useState<number | string>(() =>
    /^\d+$/.test(linked.get('partition') ?? '') ? Number(linked.get('partition')) : '',
  );
  const [maxEvents, setMaxEvents] = useState<number | string>(1000);
  const [live, setLive] = useState(false);
  const [status, setStatus] = useState<string>();
  const [error, setError] = useState<string>();
  const [filter, setFilter] = useState('');
  const [filterMode, setFilterMode] = useState<FilterMode>('text');
  const [lookups, setLookups] = useState<Lookup[]>();
  const [selected, setSelected] = useState<ConsumedMessage>();
  const [draft, setDraft] = useState({ key: '', value: '', headers: '' });
  const [producedAt, setProducedAt] = useState<string>();
  const buffer = useMessageBuffer();
  const abort = useRef<AbortController>(undefined);

  useEffect(() => () => abort.current?.abort(), []);
  // A link to a record (`?topic=&partition=&offset=`) reads from it at once: it is the first row.
  useEffect(() => {
    if (topic && linkedOffset !== undefined) void read();
  }, []);

  const position = (): Pick<ConsumeRequest, 'offset' | 'startOffset' | 'startTimestamp' | 'partition'> => {
    const p = partition === '' ? {} : { partition: Number(partition) };
    if (mode === 'offset') return { startOffset: Number(offset), ...p };
    if (mode === 'timestamp') {
      // A datetime-local value has no zone: it is the browser's local time.
      const ms = new Date(time).getTime();
      if (!time || Number.isNaN(ms)) throw new Error('Choose the date and time to start from');
      return { startTimestamp: ms, ...p };
    }
    return { offset: mode, ...p };
  };

  const read = async () => {
    if (!topic) return;
    abort.current?.abort();
    setError(undefined);
    buffer.clear();
    try {
      // untilEnd: the read completes once it has what the topic held at the start (docs/api.md).
      await api.consume(topic, { ...position(), maxEvents: Number(maxEvents), maxTimeoutSeconds: 10, untilEnd: true });
      const controller = new AbortController();
      abort.current = controller;
      let index = 0;
      for (;;) {
        const r = await api.consumeRead(topic, index);
        if (controller.signal.aborted) return;
        // A User Timing mark for bench/ui.ts: when the first messages of a read reached the page.
        if (index === 0 && r.messages.length > 0)
          performance.mark('weir:messages-arrived', { detail: { count: r.messages.length } });
        buffer.append(r.messages);
        index += r.messages.length;
        setStatus(r.status);
        if (r.status !== 'RUNNING') break;
        await new Promise((res) => setTimeout(res, 300));
      }
    } catch (err) {
      setError(errorText(err));
    }
  };

  const startTail = async () => {
    if (!topic) return;
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setError(undefined);
    setStatus('LIVE');
    try {
      const reason = await api.tail(topic, position() as TailQuery, (m) => buffer.append([m]), controller.signal);
      if (!controller.signal.aborted) setStatus(`tail ended: ${reason}`);
    } catch (err) {
      setError(errorText(err));
    }
    setLive(false);
  };

  useEffect(() => {
    if (live) void startTail();
    else if (status === 'LIVE') {
      abort.current?.abort();
      setStatus('stopped');
    }
  }, [live]);

  // Lookups for PDL filters that use them (read once, when the PDL filter is first chosen).
  useEffect(() => {
    if (filterMode === 'pdl' && !lookups) api.lookups().then(setLookups, () => setLookups([]));
  }, [filterMode]);
  // Typing stays immediate: the filter is compiled and applied on a deferred copy of the text.
  const deferredFilter = useDeferredValue(filter);
  const compiled = useMemo(() => {
    if (filterMode === 'text' || !deferredFilter.trim())
      return { predicate: textFilter(filterMode === 'text' ? deferredFilter : ''), error: undefined };
    if (filterMode === 'path' || filterMode === 'header') {
      const r = (filterMode === 'path' ? jsonPathSearch : headerSearch)(deferredFilter);
      return r.ok
        ? { predicate: r.test, error: undefined }
        : { predicate: undefined, error: { ok: false, message: r.message } as PdlFilter & { ok: false } };
    }
    const r = pdlFilter(deferredFilter, lookups);
    return r.ok ? { predicate: r.test, error: undefined } : { predicate: undefined, error: r };
  }, [deferredFilter, filterMode, lookups]);
  const incremental = useRef(new IncrementalFilter());
  const shown = useMemo(() => {
    const test = compiled.predicate;
    if (compiled.error) return [];
    return test ? incremental.current.apply(buffer.messages, test, buffer.dropped) : buffer.messages;
  }, [buffer.version, compiled]);

  const produce = async () => {
    if (!topic) return;
    try {
      const headers = draft.headers.trim() ? (JSON.parse(draft.headers) as Record<string, string>) : undefined;
      const res = await api.produce(
        topic,
        {
          messages: [{ ...(draft.key ? { key: draft.key } : {}), value: draft.value, ...(headers ? { headers } : {}) }],
        },
        { offsets: true },
      );
      if (res.result === 'success') {
        const at = res.offsets?.[0];
        const where = at ? `partition ${at.partition}, offset ${at.offset}` : 'written';
        setProducedAt(`Produced to ${topic}: ${where}`);
        notifications.show({ color: 'green', message: `Produced to ${topic}: ${where}` });
      } else {
        setProducedAt(undefined);
        notifications.show({ color: 'red', title: 'Produce failed', message: res.message ?? 'failure' });
      }
    } catch (err) {
      setProducedAt(undefined);
      notifications.show({ color: 'red', title: 'Produce failed', message: errorText(err) });
    }
  };

  const reproduce = (m: ConsumedMessage) => {
    setDraft({
      key: m.key == null ? '' : String(m.key),
      value: typeof m.value === 'string' ? m.value : JSON.stringify(m.value),
      headers: m.headers ? JSON.stringify(m.headers) : '',
    });
    setSelected(undefined);
  };

  const filterInput =
    filterMode === 'pdl' ? (
      <Textarea
        aria-label="PDL filter"
        placeholder='e.g. status="failed" AND user=a*'
        autosize
        minRows={1}
        ff="monospace"
        value={filter}
        onChange={(e) => setFilter(e.currentTarget.value)}
        w={420}
        aria-invalid={compiled.error ? true : undefined}
        aria-describedby={compiled.error ? 'pdl-filter-error' : undefined}
      />
    ) : (
      <TextInput
        aria-label={
          filterMode === 'text' ? 'Filter messages' : filterMode === 'path' ? 'JSON path filter' : 'Header filter'
        }
        placeholder={
          filterMode === 'text'
            ? 'Filter by text in key or value'
            : filterMode === 'path'
              ? 'e.g. $.user.name=alice, $.items[0].id, $.status~fail'
              : 'e.g. source=web, trace-id, source~mob'
        }
        ff={filterMode === 'text' ? undefined : 'monospace'}
        value={filter}
        onChange={(e) => setFilter(e.currentTarget.value)}
        w={360}
        aria-invalid={compiled.error ? true : undefined}
        aria-describedby={compiled.error ? 'pdl-filter-error' : undefined}
      />
    );

  const producePanel = isAdmin && topic && (
    <Stack gap="xs" data-testid="produce-panel">
      <Title order={2} size="h4">
        Produce to {topic}
      </Title>
      <TextInput label="Key" value={draft.key} onChange={(e) => setDraft({ ...draft, key: e.currentTarget.value })} />
      <TextInput
        label="Headers (JSON object)"
        placeholder='{"source": "ui"}'
        value={draft.headers}
        onChange={(e) => setDraft({ ...draft, headers: e.currentTarget.value })}
      />
      <Textarea
        label="Value"
        autosize
        minRows={4}
        maxRows={14}
        ff="monospace"
        value={draft.value}
        onChange={(e) => setDraft({ ...draft, value: e.currentTarget.value })}
      />
      <Group>
        <Button onClick={() => void produce()}>Produce</Button>
      </Group>
      {producedAt && (
        <Text size="sm" data-testid="produce-result" role="status">
          {producedAt}
        </Text>
      )}
    </Stack>
  );

  return (
    <Stack>
      <Title order={1}>Messages</Title>
      <Group align="end">
        <Select label="Topic" searchable data={topics.data ?? []} value={topic} onChange={setTopic} w={260} />
        <Select
          label="Start at"
          value={mode}
          onChange={(v) => setMode((v ?? 'earliest') as Mode)}
          w={150}
          data={[
            { value: 'earliest', label: 'Earliest' },
            { value: 'latest', label: 'Latest' },
            { value: 'offset', label: 'Offset' },
            { value: 'timestamp', label: 'Time' },
          ]}
        />
        {mode === 'offset' && <NumberInput label="Offset" min={0} value={offset} onChange={setOffset} w={120} />}
        {mode === 'timestamp' && (
          <Stack gap={2}>
            <TextInput
              label="From (your local time)"
              type="datetime-local"
              step={1}
              value={time}
              onChange={(e) => setTime(e.currentTarget.value)}
              w={230}
              description={time && !Number.isNaN(new Date(time).getTime()) ? new Date(time).toISOString() : ' '}
            />
          </Stack>
        )}
        {mode === 'timestamp' && (
          <Group gap={4} pb={4}>
            {timePresets.map((p) => (
              <Button
                key={p.label}
                size="compact-xs"
                variant="default"
                onClick={() => setTime(localInput(Date.now() - p.ms))}
              >
                {p.label}
              </Button>
            ))}
          </Group>
        )}
        <NumberInput label="Partition (all when empty)" min={0} value={partition} onChange={setPartition} w={180} />
        <NumberInput label="Max messages" min={1} value={maxEvents} onChange={setMaxEvents} w={140} />
        <Button onClick={() => void read()} disabled={!topic || live}>
          Read
        </Button>
        <Switch label="Live tail" checked={live} disabled={!topic} onChange={(e) => setLive(e.currentTarget.checked)} />
      </Group>
      <ErrorAlert error={error} />
      <Group justify="space-between" align="start">
        <Group>
          <SegmentedControl
            size="xs"
            aria-label="Filter kind"
            value={filterMode}
            onChange={(v) => setFilterMode(v as FilterMode)}
            data={[
              { label: 'Text', value: 'text' },
              { label: 'PDL', value: 'pdl' },
              { label: 'JSON path', value: 'path' },
              { label: 'Header', value: 'header' },
            ]}
          />
          {filterInput}
          <Text size="sm" data-testid="message-count">
            {shown.length} of {buffer.messages.length} messages
          </Text>
          {status && (
            <Badge variant="outline" data-testid="consume-status">
              {status}
            </Badge>
          )}
        </Group>
        <Group>
          <Button
            variant="default"
            size="xs"
            disabled={shown.length === 0}
            onClick={() => download(`${topic}.json`, JSON.stringify(shown.map(exported), null, 2))}
          >
            Export JSON
          </Button>
          <Button
            variant="default"
            size="xs"
            disabled={shown.length === 0}
            onClick={() =>
              download(
                `${topic}.ndjson`,
                shown.map((m) => JSON.stringify(exported(m))).join('\n') + '\n',
                'application/x-ndjson',
              )
            }
          >
            Export NDJSON
          </Button>
        </Group>
      </Group>
      {compiled.error && (
        <Stack gap={4} data-testid="pdl-filter-error">
          {/* The PDL error colour meets 4.5:1 in both schemes (console.css). */}
          <Text size="sm" c="var(--weir-pdl-operator)" role="alert" id="pdl-filter-error">
            {compiled.error.line === undefined
              ? compiled.error.message
              : `Line ${compiled.error.line}, column ${compiled.error.column}: ${compiled.error.message}`}
          </Text>
          {compiled.error.excerpt && <Code block>{compiled.error.excerpt}</Code>}
        </Stack>
      )}
      <Grid>
        <Grid.Col span={{ base: 12, lg: producePanel ? 8 : 12 }}>
          <MessageTable
            messages={shown}
            onSelect={(m) => setSelected(m)}
            label={`Messages of ${topic ?? 'no topic'}`}
          />
        </Grid.Col>
        {producePanel && <Grid.Col span={{ base: 12, lg: 4 }}>{producePanel}</Grid.Col>}
      </Grid>
      <Drawer
        opened={selected !== undefined}
        onClose={() => setSelected(undefined)}
        position="right"
        size="xl"
        title={selected ? `Partition ${selected.partition}, offset ${selected.offset}` : ''}
      >
        {selected && (
          <Stack>
            <Text size="sm">{selected.timestamp === undefined ? '' : new Date(selected.timestamp).toISOString()}</Text>
            <Tabs defaultValue="value">
              <Tabs.List>
                <Tabs.Tab value="value">Value</Tabs.Tab>
                <Tabs.Tab value="key">Key</Tabs.Tab>
                <Tabs.Tab value="headers">Headers ({Object.keys(selected.headers ?? {}).length})</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="value" pt="xs">
                <JsonTree value={selected.value} label="Message value" />
              </Tabs.Panel>
              <Tabs.Panel value="key" pt="xs">
                <JsonTree value={selected.key} label="Message key" />
              </Tabs.Panel>
              <Tabs.Panel value="headers" pt="xs">
                <JsonTree value={selected.headers ?? {}} label="Message headers" />
              </Tabs.Panel>
            </Tabs>
            {isAdmin && (
              <Group>
                <Button onClick={() => reproduce(selected)}>Edit and re-produce</Button>
              </Group>
            )}
          </Stack>
        )}
      </Drawer>
    </Stack>
  );
}
