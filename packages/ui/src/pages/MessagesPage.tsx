import {
  Badge,
  Button,
  Code,
  Drawer,
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
import { JsonView } from '../components/JsonView.tsx';
import { MessageTable } from '../components/MessageTable.tsx';
import { download } from '../lib/download.ts';
import { errorText } from '../lib/errors.ts';
import { useSession } from '../lib/session.tsx';
import { useMessageBuffer } from '../lib/useMessageBuffer.ts';
import { usePoll } from '../lib/usePoll.ts';
import { IncrementalFilter, pdlFilter, textFilter } from './message-filter.ts';

type Mode = 'earliest' | 'latest' | 'offset' | 'timestamp';

/** The message browser: read from a start position or tail live, inspect, filter, produce, export. */
export default function MessagesPage() {
  const { isAdmin } = useSession();
  const topics = usePoll(() => api.topics(), 0);
  const [topic, setTopic] = useState<string | null>(() => new URLSearchParams(window.location.search).get('topic'));
  const [mode, setMode] = useState<Mode>('earliest');
  const [offset, setOffset] = useState<number | string>(0);
  const [time, setTime] = useState('');
  const [partition, setPartition] = useState<number | string>('');
  const [maxEvents, setMaxEvents] = useState<number | string>(1000);
  const [live, setLive] = useState(false);
  const [status, setStatus] = useState<string>();
  const [error, setError] = useState<string>();
  const [filter, setFilter] = useState('');
  const [filterMode, setFilterMode] = useState<'text' | 'pdl'>('text');
  const [lookups, setLookups] = useState<Lookup[]>();
  const [selected, setSelected] = useState<ConsumedMessage>();
  const [draft, setDraft] = useState({ key: '', value: '', headers: '' });
  const buffer = useMessageBuffer();
  const abort = useRef<AbortController>(undefined);

  useEffect(() => () => abort.current?.abort(), []);

  const position = (): Pick<ConsumeRequest, 'offset' | 'startOffset' | 'startTimestamp' | 'partition'> => {
    const p = partition === '' ? {} : { partition: Number(partition) };
    if (mode === 'offset') return { startOffset: Number(offset), ...p };
    if (mode === 'timestamp') {
      const ms = Date.parse(time);
      if (Number.isNaN(ms)) throw new Error(`"${time}" is not a date and time (e.g. 2026-11-23T06:30:00Z)`);
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
      await api.consume(topic, { ...position(), maxEvents: Number(maxEvents), maxTimeoutSeconds: 10 });
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
      const res = await api.produce(topic, {
        messages: [{ ...(draft.key ? { key: draft.key } : {}), value: draft.value, ...(headers ? { headers } : {}) }],
      });
      if (res.result === 'success') notifications.show({ color: 'green', message: `Produced to ${topic}` });
      else notifications.show({ color: 'red', title: 'Produce failed', message: res.message ?? 'failure' });
    } catch (err) {
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
            { value: 'timestamp', label: 'Timestamp' },
          ]}
        />
        {mode === 'offset' && <NumberInput label="Offset" min={0} value={offset} onChange={setOffset} w={120} />}
        {mode === 'timestamp' && (
          <TextInput
            label="From (ISO time)"
            placeholder="2026-11-23T06:30:00Z"
            value={time}
            onChange={(e) => setTime(e.currentTarget.value)}
            w={220}
          />
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
            onChange={(v) => setFilterMode(v as 'text' | 'pdl')}
            data={[
              { label: 'Text', value: 'text' },
              { label: 'PDL', value: 'pdl' },
            ]}
          />
          {filterMode === 'text' ? (
            <TextInput
              aria-label="Filter messages"
              placeholder="Filter by text in key or value"
              value={filter}
              onChange={(e) => setFilter(e.currentTarget.value)}
              w={320}
            />
          ) : (
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
          )}
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
            onClick={() => download(`${topic}.json`, JSON.stringify(shown, null, 2))}
          >
            Export JSON
          </Button>
          <Button
            variant="default"
            size="xs"
            disabled={shown.length === 0}
            onClick={() =>
              download(`${topic}.ndjson`, shown.map((m) => JSON.stringify(m)).join('\n') + '\n', 'application/x-ndjson')
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
      <MessageTable messages={shown} onSelect={(m) => setSelected(m)} label={`Messages of ${topic ?? 'no topic'}`} />
      {isAdmin && topic && (
        <Stack gap="xs">
          <Title order={2} size="h4">
            Produce to {topic}
          </Title>
          <Group align="start" grow>
            <TextInput
              label="Key"
              value={draft.key}
              onChange={(e) => setDraft({ ...draft, key: e.currentTarget.value })}
            />
            <TextInput
              label="Headers (JSON object)"
              placeholder='{"source": "ui"}'
              value={draft.headers}
              onChange={(e) => setDraft({ ...draft, headers: e.currentTarget.value })}
            />
          </Group>
          <Textarea
            label="Value"
            autosize
            minRows={3}
            value={draft.value}
            onChange={(e) => setDraft({ ...draft, value: e.currentTarget.value })}
          />
          <Group>
            <Button onClick={() => void produce()}>Produce</Button>
          </Group>
        </Stack>
      )}
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
                <JsonView value={selected.value} label="Message value" />
              </Tabs.Panel>
              <Tabs.Panel value="key" pt="xs">
                <JsonView value={selected.key} label="Message key" />
              </Tabs.Panel>
              <Tabs.Panel value="headers" pt="xs">
                <JsonView value={selected.headers ?? {}} label="Message headers" />
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
