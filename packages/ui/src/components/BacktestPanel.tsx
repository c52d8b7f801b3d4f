import { Alert, Badge, Button, Group, Progress, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { BacktestRequest, BacktestStatus, Rule } from '@weir/contract';
import { useEffect, useRef, useState } from 'react';
import { api } from '../lib/api.ts';
import {
  alertRow,
  customRange,
  defaultTopic,
  localInputValue,
  presetRange,
  progressText,
  rangePresets,
  ruleInputTopics,
  type RangePreset,
  type TimeRange,
} from '../lib/backtest-view.ts';
import { errorText } from '../lib/errors.ts';
import { ConsoleLink } from './AlertDrawer.tsx';
import { ErrorAlert } from './ErrorAlert.tsx';

/** How many alerts of each diff set the result lists. */
const listed = 100;
const pollMs = 500;
const active = (s: BacktestStatus) => s.state === 'queued' || s.state === 'running';
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The rule editor's Backtest tab (docs/detection-as-code.md, "In the console"): the editor's
 * current text (saved or not) as the candidate, over a topic's time range, against the rule in
 * force; progress from the server-sent events (polling if the stream breaks), cancel, then the
 * alert counts and the diff — new alerts (only the candidate's), lost alerts (only the rule in
 * force's), and those in both — each alert with its time, fields and source record.
 */
export function BacktestPanel({ rule, topics }: { rule: Rule; topics: readonly string[] | undefined }) {
  const [topic, setTopic] = useState<string | null>(null);
  const [preset, setPreset] = useState<RangePreset>('1h');
  const [from, setFrom] = useState(() => localInputValue(Date.now() - 3_600_000));
  const [to, setTo] = useState(() => localInputValue(Date.now()));
  const [status, setStatus] = useState<BacktestStatus>();
  const [range, setRange] = useState<{ topic: string } & TimeRange>();
  const [error, setError] = useState<string>();
  const [starting, setStarting] = useState(false);
  const follow = useRef<AbortController | undefined>(undefined);

  // The topic offered first: the input topic of a topology that runs this rule, when there is one.
  useEffect(() => {
    if (topics === undefined || topic !== null || !rule.id) return;
    let gone = false;
    Promise.all([api.tasks.list(), api.pipelines.list(), api.topologies.list()])
      .then(([tasks, pipelines, topologies]) => ruleInputTopics(rule.id, tasks, pipelines, topologies))
      .catch(() => [])
      .then((inputs) => {
        if (!gone) setTopic((t) => t ?? defaultTopic(inputs, topics));
      });
    return () => {
      gone = true;
    };
  }, [topics, topic, rule.id]);

  useEffect(() => () => follow.current?.abort(), []);

  const run = async () => {
    setError(undefined);
    if (!topic) return;
    let r: TimeRange;
    try {
      r = preset === 'custom' ? customRange(from, to) : presetRange(preset, Date.now());
    } catch (err) {
      setError((err as Error).message);
      return;
    }
    const request: BacktestRequest = {
      candidate: {
        rules: [
          {
            id: rule.id,
            pdl: rule.pdl,
            name: rule.name || rule.id,
            ...(rule.severity ? { severity: rule.severity } : {}),
            annotations: rule.annotations ?? [],
          },
        ],
      },
      source: { topic, from: iso(r.from), to: iso(r.to) },
      first: listed,
    };
    setStarting(true);
    let latest: BacktestStatus;
    try {
      latest = await api.startBacktest(request);
    } catch (err) {
      setError(errorText(err));
      return;
    } finally {
      setStarting(false);
    }
    setRange({ topic, ...r });
    setStatus(latest);
    follow.current?.abort();
    const ctl = new AbortController();
    follow.current = ctl;
    const seen = (s: BacktestStatus) => {
      latest = s;
      if (!ctl.signal.aborted) setStatus(s);
    };
    try {
      await api.followBacktest(latest.id, seen, ctl.signal);
    } catch {
      // the stream broke (a proxy, the network): the status is polled below
    }
    try {
      while (active(latest) && !ctl.signal.aborted) {
        await new Promise((res) => setTimeout(res, pollMs));
        seen(await api.backtest(latest.id));
      }
    } catch (err) {
      if (!ctl.signal.aborted) setError(errorText(err));
    }
  };

  const cancel = async () => {
    if (!status) return;
    try {
      setStatus(await api.cancelBacktest(status.id));
    } catch (err) {
      setError(errorText(err));
    }
  };

  const running = status !== undefined && active(status);
  return (
    <Stack data-testid="backtest">
      <Text size="sm">
        Runs the editor&apos;s current PDL (saved or not) over a range of a topic, as the engine would, and compares its
        alerts with those of the rule in force. Nothing is written to any topic.
      </Text>
      <Group align="end">
        <Select
          label="Topic"
          searchable
          allowDeselect={false}
          data={topics ? [...topics] : []}
          value={topic}
          onChange={setTopic}
          w={260}
        />
        <Select
          label="Range"
          allowDeselect={false}
          data={rangePresets.map((p) => ({ value: p.value, label: p.label }))}
          value={preset}
          onChange={(v) => v && setPreset(v as RangePreset)}
          w={200}
        />
        {preset === 'custom' && (
          <>
            <TextInput
              type="datetime-local"
              label="From"
              description="Your time zone"
              value={from}
              onChange={(e) => setFrom(e.currentTarget.value)}
            />
            <TextInput
              type="datetime-local"
              label="To"
              description="Your time zone"
              value={to}
              onChange={(e) => setTo(e.currentTarget.value)}
            />
          </>
        )}
        <Button onClick={() => void run()} loading={starting} disabled={!topic || !rule.pdl.trim() || running}>
          Run backtest
        </Button>
        {running && (
          <Button variant="default" color="red" onClick={() => void cancel()}>
            Cancel backtest
          </Button>
        )}
      </Group>
      <ErrorAlert error={error} title="The backtest did not start" />
      {status && range && <Outcome status={status} range={range} />}
    </Stack>
  );
}

function Outcome({ status, range }: { status: BacktestStatus; range: { topic: string } & TimeRange }) {
  const share = Math.round(status.progress.share * 100);
  const stateColor = { queued: 'gray', running: 'blue', done: 'green', failed: 'red', cancelled: 'orange' }[
    status.state
  ];
  return (
    <Stack data-testid="backtest-outcome">
      <Stack gap={4} aria-live="polite">
        <Group gap="xs">
          <Badge color={stateColor} variant="dot" data-testid="backtest-state">
            {status.state}
          </Badge>
          <Text size="sm">
            {range.topic}, {iso(range.from)} to {iso(range.to)}
          </Text>
        </Group>
        <Progress value={share} aria-label="Backtest progress" animated={active(status)} />
        <Text size="sm" data-testid="backtest-progress">
          {progressText(status.progress)}
        </Text>
      </Stack>
      {status.state === 'failed' && (
        <Alert color="red" role="alert" title="The backtest failed">
          {status.error}
        </Alert>
      )}
      {status.state === 'cancelled' && (
        <Alert color="gray" role="status" title="Cancelled">
          {status.error ?? 'The backtest was cancelled.'}
        </Alert>
      )}
      {status.result && <Result status={status} />}
    </Stack>
  );
}

function Result({ status }: { status: BacktestStatus }) {
  const result = status.result!;
  const { onlyCandidate, onlyCurrent, both } = result.diff;
  return (
    <Stack>
      {result.events === 0 ? (
        <Alert color="blue" role="status" title="The range is empty">
          No event of the topic has a time in this range: there is nothing to compare. Pick a wider range or another
          topic.
        </Alert>
      ) : (
        <Text size="sm" data-testid="backtest-summary">
          {result.events} events read
          {result.unreadable > 0
            ? `, ${result.unreadable} not readable (not JSON objects, skipped as the engine dead-letters them)`
            : ''}
          .
        </Text>
      )}
      <Table aria-label="Alerts per rule" withTableBorder w="auto">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Rule</Table.Th>
            <Table.Th>Alerts of this text</Table.Th>
            <Table.Th>Alerts of the rule in force</Table.Th>
            <Table.Th>New</Table.Th>
            <Table.Th>Lost</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {result.rules.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>{r.id}</Table.Td>
              <Table.Td>{r.alerts}</Table.Td>
              <Table.Td>{both.count + onlyCurrent.count}</Table.Td>
              <Table.Td>{onlyCandidate.count}</Table.Td>
              <Table.Td>{onlyCurrent.count}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <DiffSet title="New alerts" what="only this text raises them" set={onlyCandidate} color="green" />
      <DiffSet title="Lost alerts" what="only the rule in force raises them" set={onlyCurrent} color="red" />
      <DiffSet title="In both" what="this text and the rule in force raise them" set={both} color="gray" />
    </Stack>
  );
}

function DiffSet({
  title,
  what,
  set,
  color,
}: {
  title: string;
  what: string;
  set: { count: number; alerts?: readonly Record<string, unknown>[] };
  color: string;
}) {
  // by time, oldest first (the backtest merges the partitions by record timestamp, not by event time)
  const rows = (set.alerts ?? []).map(alertRow).sort((a, b) => a.time.localeCompare(b.time));
  const slug = title.toLowerCase().replaceAll(' ', '-');
  return (
    <Stack gap="xs" data-testid={`backtest-${slug}`}>
      <Group gap="xs">
        <Title order={3} size="h5">
          {title}
        </Title>
        <Badge color={color} variant="light" data-testid={`backtest-${slug}-count`}>
          {set.count}
        </Badge>
        <Text size="sm" c="dimmed">
          {what}
          {set.count > rows.length ? ` — the first ${rows.length} listed` : ''}
        </Text>
      </Group>
      {rows.length > 0 && (
        <Table aria-label={title} striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Time</Table.Th>
              <Table.Th>Fields</Table.Th>
              <Table.Th>Source record</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td>{r.time}</Table.Td>
                <Table.Td ff="monospace">{r.fields}</Table.Td>
                <Table.Td>{r.source ? <ConsoleLink to={r.source}>{r.sourceLabel}</ConsoleLink> : '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
