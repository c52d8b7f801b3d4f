import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { Sparkline } from '../components/Sparkline.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { labelsOf, total, type ClusterReading, type CounterKind } from '../lib/cluster-metrics.ts';
import { api } from '../lib/api.ts';
import { errorText } from '../lib/errors.ts';
import { useRouter } from '../lib/router.tsx';
import { severityColor } from '../lib/severity-colors.ts';
import { severityCounts, severityWindowMs } from '../lib/severity-counts.ts';
import { usePoll } from '../lib/usePoll.ts';
import { useSession } from '../lib/session.tsx';
import { nodeApi, useCluster, type NodeStatus } from '../lib/useCluster.ts';

const windowSamples = 450; // 15 min at one sample every 2 s
const kinds = ['in', 'out', 'alerts', 'dead'] as const;
type Sample = { time: number } & Record<(typeof kinds)[number], number>;

/**
 * The whole cluster (docs/ui.md → Cluster): every node with its engine state and start/stop, and
 * live figures added up over the nodes (every 2 s, the last 15 minutes kept in the page).
 */
export default function OverviewPage() {
  const cluster = useCluster(2000);
  const [samples, setSamples] = useState<Sample[]>([]);
  const reading = cluster.reading;
  useEffect(() => {
    const rates = reading?.rates;
    if (!reading || !rates) return;
    const s = { time: reading.time } as Sample;
    for (const k of kinds) s[k] = total(rates, k);
    setSamples((prev) => [...prev.slice(-windowSamples), s]);
  }, [reading]);
  const series = (k: (typeof kinds)[number], factor = 1) => samples.map((s) => s[k] * factor);
  const nodes = cluster.nodes ?? [];
  const answering = nodes.filter((n) => n.summary).length;
  const sum = (kind: CounterKind) => (reading ? total(reading.totals, kind) : undefined);
  return (
    <Stack>
      <Title order={1}>Overview</Title>
      <ErrorAlert error={cluster.error} />
      <Text size="sm" data-testid="cluster-nodes">
        {cluster.nodes
          ? `Figures of the whole cluster: ${answering} of ${nodes.length} nodes answering.`
          : 'Reading the cluster…'}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        <Stat label="Records in" total={sum('in')} rates={series('in')} testId="records-in" />
        <Stat label="Records out" total={sum('out')} rates={series('out')} testId="records-out" />
        <Stat label="Alerts" total={sum('alerts')} rates={series('alerts', 60)} unit="/min" testId="alerts" />
        <Stat label="Dead letters" total={sum('dead')} rates={series('dead')} testId="dead-letters" />
      </SimpleGrid>
      <Text size="sm">
        Consumer lag: <span data-testid="consumer-lag">{reading?.lag ?? '—'}</span> records
      </Text>
      <AlertsBySeverityCard />
      <NodesCard nodes={nodes} reload={cluster.reload} />
      <TopologiesCard reading={reading} />
      <TopRulesCard reading={reading} />
    </Stack>
  );
}

/**
 * The stored alerts of the last 24 hours by severity (the alert store of the answering node, which
 * every node fills from the whole alerts topic): one `GET /api/alerts/groups?by=field:_alert.severity`
 * every 10 s; each count links to the Alerts page filtered by that severity and range.
 */
function AlertsBySeverityCard() {
  const { navigate } = useRouter();
  const groups = usePoll(
    () => api.alertGroups({ by: 'field:_alert.severity', from: String(Date.now() - severityWindowMs) }),
    10_000,
  );
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="xs">
        Alerts by severity, last 24 hours
      </Title>
      <ErrorAlert error={groups.error} />
      <Group gap="xl" data-testid="alerts-by-severity">
        {severityCounts(groups.data?.groups ?? []).map(({ severity, count }) => {
          const to = `/alerts?range=24h&severity=${severity}`;
          return (
            <Stack key={severity} gap={0} align="center">
              <Anchor
                href={to}
                size="xl"
                fw={700}
                aria-label={`${count} ${severity} alerts in the last 24 hours`}
                data-testid={`severity-${severity}`}
                onClick={(e) => {
                  e.preventDefault();
                  navigate(to);
                }}
              >
                {groups.data ? count : '—'}
              </Anchor>
              <Badge color={severityColor[severity]} variant="dot" style={{ textTransform: 'none' }}>
                {severity}
              </Badge>
            </Stack>
          );
        })}
      </Group>
    </Card>
  );
}

function NodesCard({ nodes, reload }: { nodes: NodeStatus[]; reload: () => void }) {
  const { isAdmin } = useSession();
  const engineAction = async (n: NodeStatus, action: 'start' | 'stop') => {
    try {
      const client = nodeApi(n);
      await (action === 'start' ? client.engineStart() : client.engineStop());
      reload();
    } catch (err) {
      notifications.show({ color: 'red', title: `Engine ${action} failed on ${n.node.host}`, message: errorText(err) });
    }
  };
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="xs">
        Nodes
      </Title>
      <Table>
        <TableHead headers={['UUID', 'Host', 'Group', 'Engine', 'Last seen', isAdmin && 'Actions']} />
        <Table.Tbody>
          {nodes.map((n) => {
            const states = n.states ?? [];
            const stopped = states.length > 0 && states.every((s) => s === 'NOT_RUNNING');
            return (
              <Table.Tr key={n.node.uuid} data-testid="node-row">
                <Table.Td>
                  {n.node.uuid}
                  {n.home && (
                    <Text size="xs" c="var(--weir-muted-text)">
                      this UI's engine
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {n.node.host}
                  <Text size="xs" c="var(--weir-muted-text)">
                    {n.node.rest}
                  </Text>
                </Table.Td>
                <Table.Td>{n.node.group}</Table.Td>
                <Table.Td data-testid="node-engine">
                  {n.error ? (
                    <Text size="sm" c="var(--mantine-color-error)" role="status">
                      Unreachable: {n.error}
                    </Text>
                  ) : (
                    <Group gap={4}>
                      {states.map((s, i) => (
                        <Badge
                          key={i}
                          variant="dot"
                          color={s === 'RUNNING' ? 'green' : s === 'NOT_RUNNING' ? 'gray' : 'yellow'}
                        >
                          worker {i}: {s}
                        </Badge>
                      ))}
                    </Group>
                  )}
                </Table.Td>
                <Table.Td>{n.node.lastSeen ? new Date(n.node.lastSeen).toLocaleTimeString() : '—'}</Table.Td>
                {isAdmin && (
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="xs"
                        disabled={!stopped || Boolean(n.error)}
                        aria-label={`Start engine on ${n.node.uuid}`}
                        onClick={() => void engineAction(n, 'start')}
                      >
                        Start engine
                      </Button>
                      <Button
                        size="xs"
                        variant="default"
                        disabled={stopped || Boolean(n.error)}
                        aria-label={`Stop engine on ${n.node.uuid}`}
                        onClick={() => void engineAction(n, 'stop')}
                      >
                        Stop engine
                      </Button>
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

const perSecond = (r: ClusterReading | undefined, kind: CounterKind, topology: string) =>
  r?.rates ? total(r.rates, kind, topology).toFixed(1) : '—';

function TopologiesCard({ reading }: { reading: ClusterReading | undefined }) {
  const names = [
    ...new Set(
      (['in', 'out', 'alerts', 'dead'] as const).flatMap((k) => labelsOf(reading?.totals ?? {}, k).map((l) => l[0]!)),
    ),
  ].sort();
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="xs">
        Topologies
      </Title>
      {names.length === 0 ? (
        <Text size="sm">No topology has processed a record since the nodes started.</Text>
      ) : (
        <Table data-testid="topology-figures">
          <TableHead headers={['Topology', 'Records in', 'In /s', 'Records out', 'Out /s', 'Alerts', 'Dead letters']} />
          <Table.Tbody>
            {names.map((name) => (
              <Table.Tr key={name}>
                <Table.Td>{name}</Table.Td>
                <Table.Td>{total(reading!.totals, 'in', name)}</Table.Td>
                <Table.Td>{perSecond(reading, 'in', name)}</Table.Td>
                <Table.Td>{total(reading!.totals, 'out', name)}</Table.Td>
                <Table.Td>{perSecond(reading, 'out', name)}</Table.Td>
                <Table.Td>{total(reading!.totals, 'alerts', name)}</Table.Td>
                <Table.Td>{total(reading!.totals, 'dead', name)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

function TopRulesCard({ reading }: { reading: ClusterReading | undefined }) {
  const matches = labelsOf(reading?.totals ?? {}, 'rule')
    .map(([rule]) => ({ rule: rule!, value: total(reading!.totals, 'rule', rule!) }))
    .sort((a, b) => b.value - a.value)
    .slice(0, 10);
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="xs">
        Top rules by matches
      </Title>
      {matches.length === 0 ? (
        <Text size="sm">No rule has matched since the nodes started.</Text>
      ) : (
        <Table>
          <TableHead headers={['Rule', 'Matches']} />
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
