import {
  Button,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ConsumerGroupDetail, LagHistory, ResetOffsetsRequest } from '@weir/client';
import { useState } from 'react';
import { api } from '../lib/api.ts';
import { ConfirmDelete } from '../components/ConfirmDelete.tsx';
import { useActionError, useDialog, type DialogProps } from '../components/dialog.ts';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { isoTimeExample, parseTime } from '../lib/iso-time.ts';
import { lagChartModel } from '../lib/lag-series.ts';
import { usePathId } from '../lib/path-id.ts';
import { useSession } from '../lib/session.tsx';
import { usePoll } from '../lib/usePoll.ts';
import { ConsumerGroupList, GroupState, TopologyLinks } from './ConsumerGroupList.tsx';

/**
 * Consumer groups (issue 23): the list with state, members and total lag; a group's page with its
 * partitions (committed offset, end offset, lag, member), its lag over time as the node sampled it,
 * and, for admins, offset reset and deletion (both refused by the API while the group has members).
 */
export default function ConsumerGroupsPage() {
  const { id, close } = usePathId('/groups');
  return id === undefined ? <ConsumerGroupList /> : <GroupDetail id={id} onGone={close} />;
}

function GroupDetail({ id, onGone }: { id: string; onGone: () => void }) {
  const { isAdmin } = useSession();
  const group = usePoll(() => api.consumerGroup(id), 5_000, [id]);
  const history = usePoll(() => api.lagHistory(id), 10_000, [id]);
  const resetting = useDialog(() => group.reload());
  const [deleting, setDeleting] = useState(false);
  const g = group.data;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Consumer group {id}</Title>
        {isAdmin && g && (
          <Group>
            <Button onClick={resetting.open}>Reset offsets</Button>
            <Button color="red.9" variant="outline" onClick={() => setDeleting(true)}>
              Delete group
            </Button>
          </Group>
        )}
      </Group>
      <ErrorAlert error={group.error} />
      {g && (
        <>
          <Group data-testid="group-summary">
            <GroupState state={g.state} />
            <Text>
              {g.members} {g.members === 1 ? 'member' : 'members'} · total lag {g.lag.toLocaleString('en-US')}
            </Text>
            {g.topologies.length > 0 && (
              <Group gap={6}>
                <Text>Topologies:</Text>
                <TopologyLinks topologies={g.topologies} />
              </Group>
            )}
          </Group>
          <PartitionTable group={g} />
        </>
      )}
      <Title order={2}>Lag over time</Title>
      <ErrorAlert error={history.error} />
      {history.data && <LagChart history={history.data} />}
      {g && <ResetOffsets group={g} {...resetting.props} />}
      <ConfirmDelete
        what={deleting ? `group ${id}` : undefined}
        onClose={() => setDeleting(false)}
        message={<>Delete consumer group {id} and its committed offsets? This cannot be undone.</>}
        onConfirm={async () => {
          await api.deleteConsumerGroup(id);
          notifications.show({ color: 'green', message: `Consumer group ${id} deleted` });
          setDeleting(false);
          onGone();
        }}
      />
    </Stack>
  );
}

function PartitionTable({ group }: { group: ConsumerGroupDetail }) {
  const clientOf = new Map(group.memberDetails.map((m) => [m.id, `${m.clientId} (${m.host})`]));
  return (
    <Table striped aria-label="Partitions of the group">
      <TableHead headers={['Topic', 'Partition', 'Committed offset', 'End offset', 'Lag', 'Member']} />
      <Table.Tbody>
        {group.partitions.map((p) => (
          <Table.Tr key={`${p.topic}:${p.partition}`}>
            <Table.Td>{p.topic}</Table.Td>
            <Table.Td>{p.partition}</Table.Td>
            <Table.Td>{p.committedOffset ?? '—'}</Table.Td>
            <Table.Td>{p.endOffset}</Table.Td>
            <Table.Td>{p.lag}</Table.Td>
            <Table.Td>{p.member === null ? '—' : (clientOf.get(p.member) ?? p.member)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

const chartColors = ['blue', 'orange', 'teal', 'grape', 'red', 'cyan', 'lime', 'pink', 'indigo'];

/** The group's total lag and its lagging partitions over the samples the node kept (SVG lines). */
function LagChart({ history }: { history: LagHistory }) {
  const width = 640;
  const height = 160;
  const model = lagChartModel(history, width, height);
  if (history.samples.length === 0)
    return (
      <Text size="sm" data-testid="lag-chart-empty">
        No samples yet: this node samples every {history.sampleSeconds} s and keeps {history.keepMinutes} minutes.
      </Text>
    );
  const time = (ms: number) => new Date(ms).toLocaleTimeString('en-GB');
  return (
    <Stack gap={4}>
      <svg
        width={width + 60}
        height={height + 30}
        role="img"
        aria-label={`Lag of ${history.id}: ${history.samples.length} samples, latest total ${model.lines[0]!.latest}`}
      >
        <g transform="translate(50,5)">
          <line x1={0} y1={height} x2={width} y2={height} stroke="var(--mantine-color-dimmed)" />
          <line x1={0} y1={0} x2={0} y2={height} stroke="var(--mantine-color-dimmed)" />
          <text x={-6} y={8} textAnchor="end" fontSize={11} fill="currentColor">
            {model.max}
          </text>
          <text x={-6} y={height} textAnchor="end" fontSize={11} fill="currentColor">
            0
          </text>
          <text x={0} y={height + 18} fontSize={11} fill="currentColor">
            {time(model.from)}
          </text>
          <text x={width} y={height + 18} textAnchor="end" fontSize={11} fill="currentColor">
            {time(model.to)}
          </text>
          {model.lines.map((l, i) => (
            <polyline
              key={l.label}
              points={l.points}
              fill="none"
              stroke={`var(--mantine-color-${chartColors[i % chartColors.length]}-filled)`}
              strokeWidth={i === 0 ? 2.5 : 1.5}
            />
          ))}
        </g>
      </svg>
      <Group gap="md" data-testid="lag-legend">
        {model.lines.map((l, i) => (
          <Group key={l.label} gap={4}>
            <svg width={12} height={12} aria-hidden>
              <rect
                width={12}
                height={12}
                fill={`var(--mantine-color-${chartColors[i % chartColors.length]}-filled)`}
              />
            </svg>
            <Text size="sm">
              {l.label}: {l.latest}
            </Text>
          </Group>
        ))}
      </Group>
      <Text size="xs">
        Sampled by this node every {history.sampleSeconds} s, kept {history.keepMinutes} minutes.
      </Text>
    </Stack>
  );
}

type Target = ResetOffsetsRequest['to'];

function ResetOffsets({ group, opened, onClose, onDone }: DialogProps & { group: ConsumerGroupDetail }) {
  const [to, setTo] = useState<Target>('earliest');
  const [time, setTime] = useState('');
  const [offset, setOffset] = useState<number | string>(0);
  const { error, attempt, clear } = useActionError();
  const submit = () =>
    attempt(async () => {
      const request: ResetOffsetsRequest = { to };
      if (to === 'timestamp') request.timestamp = parseTime(time);
      if (to === 'offset') request.offset = Number(offset);
      const result = await api.resetOffsets(group.id, request);
      notifications.show({
        color: 'green',
        message: `Offsets of ${group.id} reset: ${result.offsets.map((o) => `${o.topic}[${o.partition}] → ${o.offset}`).join(', ')}`,
      });
    }, onDone);
  return (
    <Modal
      opened={opened}
      onClose={() => {
        clear();
        onClose();
      }}
      title={`Reset offsets of ${group.id}`}
    >
      <Stack>
        <ErrorAlert error={error} />
        {group.members > 0 && (
          <Text size="sm" c="red.9">
            The group has {group.members} active {group.members === 1 ? 'member' : 'members'}: stop its consumers first.
          </Text>
        )}
        <SegmentedControl
          aria-label="Reset to"
          value={to}
          onChange={(v) => setTo(v as Target)}
          data={[
            { value: 'earliest', label: 'Earliest' },
            { value: 'latest', label: 'Latest' },
            { value: 'timestamp', label: 'A time' },
            { value: 'offset', label: 'An offset' },
          ]}
        />
        {to === 'timestamp' && (
          <TextInput
            label="Time (ISO 8601)"
            placeholder={isoTimeExample}
            value={time}
            onChange={(e) => setTime(e.currentTarget.value)}
          />
        )}
        {to === 'offset' && <NumberInput label="Offset" min={0} value={offset} onChange={setOffset} />}
        <Text size="sm">Every partition of the topics the group has committed offsets for moves.</Text>
        <Button onClick={() => void submit()}>Reset</Button>
      </Stack>
    </Modal>
  );
}
