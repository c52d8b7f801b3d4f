import { Alert, Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { MetricsSummary } from '@weir/client';
import { useEffect, useRef, useState } from 'react';
import { api } from '../api.ts';
import { Sparkline } from '../components/Sparkline.tsx';
import { errorText } from '../errors.ts';
import { useSession } from '../session.tsx';
import { usePoll } from '../usePoll.ts';

const sum = (rows: { value: number }[]) => rows.reduce((a, r) => a + r.value, 0);
const windowSamples = 450; // 15 min at one sample every 2 s

interface Sample {
  time: number;
  recordsIn: number;
  recordsOut: number;
  alerts: number;
  deadLettered: number;
  lag: number;
}

/** Nodes, engine state with start/stop, live rates from the metrics summary (every 2 s), top rules. */
export default function OverviewPage() {
  const { isAdmin } = useSession();
  const nodes = usePoll(() => api.nodes(), 10_000);
  const engine = usePoll(() => api.engineState(), 2000);
  const metrics = usePoll(() => api.metricsSummary(), 2000);
  const [samples, setSamples] = useState<Sample[]>([]);
  const first = useRef<MetricsSummary>(undefined);
  useEffect(() => {
    const m = metrics.data;
    if (!m) return;
    first.current ??= m;
    const s: Sample = {
      time: m.time,
      recordsIn: sum(m.recordsIn),
      recordsOut: sum(m.recordsOut),
      alerts: sum(m.alerts),
      deadLettered: sum(m.deadLettered),
      lag: sum(m.lag),
    };
    setSamples((prev) => [...prev.slice(-windowSamples), s]);
  }, [metrics.data]);
  const rate = (k: keyof Sample) =>
    samples
      .slice(1)
      .map((s, i) => Math.max(0, (s[k] - samples[i]![k]) / Math.max(0.001, (s.time - samples[i]!.time) / 1000)));
  const last = samples.at(-1);
  const engineAction = async (action: 'start' | 'stop') => {
    try {
      await (action === 'start' ? api.engineStart() : api.engineStop());
      engine.reload();
    } catch (err) {
      notifications.show({ color: 'red', title: `Engine ${action} failed`, message: errorText(err) });
    }
  };
  const matches = [...(metrics.data?.ruleMatches ?? [])].sort((a, b) => b.value - a.value).slice(0, 10);
  const states = engine.data?.states ?? [];
  const stopped = states.length > 0 && states.every((s) => s === 'NOT_RUNNING');
  return (
    <Stack>
      <Title order={1}>Overview</Title>
      {(metrics.error || engine.error) && (
        <Alert color="red" role="alert">
          {metrics.error ?? engine.error}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        <Stat label="Records in" total={last?.recordsIn} rates={rate('recordsIn')} testId="records-in" />
        <Stat label="Records out" total={last?.recordsOut} rates={rate('recordsOut')} testId="records-out" />
        <Stat
          label="Alerts"
          total={last?.alerts}
          rates={rate('alerts').map((r) => r * 60)}
          unit="/min"
          testId="alerts"
        />
        <Stat label="Dead letters" total={last?.deadLettered} rates={rate('deadLettered')} testId="dead-letters" />
      </SimpleGrid>
      <Card withBorder>
        <Group justify="space-between">
          <Group>
            <Title order={2} size="h4">
              Engine (this node)
            </Title>
            {states.map((s, i) => (
              <Badge key={i} variant="dot" color={s === 'RUNNING' ? 'green' : s === 'NOT_RUNNING' ? 'gray' : 'yellow'}>
                worker {i}: {s}
              </Badge>
            ))}
          </Group>
          {isAdmin && (
            <Group>
              <Button size="xs" disabled={!stopped} onClick={() => void engineAction('start')}>
                Start engine
              </Button>
              <Button size="xs" variant="default" disabled={stopped} onClick={() => void engineAction('stop')}>
                Stop engine
              </Button>
            </Group>
          )}
        </Group>
        <Text size="sm" mt="xs">
          Consumer lag: {last?.lag ?? '—'} records
        </Text>
      </Card>
      <Card withBorder>
        <Title order={2} size="h4" mb="xs">
          Nodes
        </Title>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>UUID</Table.Th>
              <Table.Th>Host</Table.Th>
              <Table.Th>Group</Table.Th>
              <Table.Th>REST URL</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(nodes.data ?? []).map((n) => (
              <Table.Tr key={n.uuid}>
                <Table.Td>{n.uuid}</Table.Td>
                <Table.Td>{n.host}</Table.Td>
                <Table.Td>{n.group}</Table.Td>
                <Table.Td>{n.rest}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
      <Card withBorder>
        <Title order={2} size="h4" mb="xs">
          Top rules by matches
        </Title>
        {matches.length === 0 ? (
          <Text size="sm">No rule has matched since this node started.</Text>
        ) : (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Rule</Table.Th>
                <Table.Th>Matches</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {matches.map((m) => (
                <Table.Tr key={m.rule}>
                  <Table.Td>{m.rule}</Table.Td>
                  <Table.Td>{m.value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
    </Stack>
  );
}

function Stat({
  label,
  total,
  rates,
  unit = '/s',
  testId,
}: {
  label: string;
  total: number | undefined;
  rates: number[];
  unit?: string;
  testId: string;
}) {
  const now = rates.at(-1) ?? 0;
  return (
    <Card withBorder>
      <Text size="sm">{label}</Text>
      <Text size="xl" fw={700} data-testid={testId}>
        {total ?? '—'}
      </Text>
      <Text size="xs">
        {now.toFixed(1)} {unit}
      </Text>
      <Sparkline values={rates.slice(-60)} label={`${label} ${unit}`} />
    </Card>
  );
}
