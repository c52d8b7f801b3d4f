import {
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { TopicPartitions, TopicSetting } from '@weir/client';
import { useMemo, useState } from 'react';
import { api } from '../lib/api.ts';
import { useActionError, useDialog, type DialogProps } from '../components/dialog.ts';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { isoTimeExample, parseTime } from '../lib/iso-time.ts';
import { countOf } from '../lib/kind-labels.ts';
import { useRouter } from '../lib/router.tsx';
import { useSession } from '../lib/session.tsx';
import { usePoll } from '../lib/usePoll.ts';

const bytes = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 ** 2).toFixed(1)} MiB`;
const count = (n: number) => n.toLocaleString('en-US');

/**
 * A topic in depth (issue 23, `/topics/<name>`): partitions with leader, replicas, in-sync replicas,
 * offsets, counts and sizes; every setting with the ones set on the topic marked; for admins,
 * editing a setting, adding partitions and purging records (the topic's name typed to confirm).
 */
export function TopicDetail({ name, onBack }: { name: string; onBack: () => void }) {
  const { isAdmin } = useSession();
  const { navigate } = useRouter();
  const partitions = usePoll(() => api.topicPartitions(name), 10_000, [name]);
  const settings = usePoll(() => api.topicSettings(name), 0, [name]);
  const [onlyChanged, setOnlyChanged] = useState(false);
  const [editing, setEditing] = useState<TopicSetting>();
  const growing = useDialog(() => partitions.reload());
  const purging = useDialog(() => partitions.reload());
  const p = partitions.data;
  const shownSettings = useMemo(
    () => (settings.data?.settings ?? []).filter((s) => !onlyChanged || s.changed),
    [settings.data, onlyChanged],
  );
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Topic {name}</Title>
        <Group>
          <Button variant="default" onClick={onBack}>
            All topics
          </Button>
          <Button variant="outline" onClick={() => navigate(`/messages?topic=${encodeURIComponent(name)}`)}>
            Messages
          </Button>
          {isAdmin && p && (
            <>
              <Button onClick={growing.open}>Add partitions</Button>
              <Button color="red.9" variant="outline" onClick={purging.open}>
                Purge records
              </Button>
            </>
          )}
        </Group>
      </Group>
      <ErrorAlert error={partitions.error} />
      {p && (
        <>
          <Text data-testid="topic-totals">
            {countOf(p.partitions.length, 'partition')} ·{' '}
            {countOf(p.messages, 'message', 'messages', count(p.messages))} · {bytes(p.sizeBytes)}
          </Text>
          <Table striped aria-label="Partitions">
            <TableHead
              headers={['Partition', 'Leader', 'Replicas', 'In sync', 'Low offset', 'High offset', 'Messages', 'Size']}
            />
            <Table.Tbody>
              {p.partitions.map((r) => (
                <Table.Tr key={r.partition}>
                  <Table.Td>{r.partition}</Table.Td>
                  <Table.Td>{r.leader < 0 ? 'none' : r.leader}</Table.Td>
                  <Table.Td>{r.replicas.join(', ')}</Table.Td>
                  <Table.Td>
                    {r.inSyncReplicas.join(', ')}
                    {r.inSyncReplicas.length < r.replicas.length && (
                      <Badge ml={6} color="red" variant="light">
                        under-replicated
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{count(r.lowOffset)}</Table.Td>
                  <Table.Td>{count(r.highOffset)}</Table.Td>
                  <Table.Td>{count(r.messages)}</Table.Td>
                  <Table.Td>{bytes(r.sizeBytes)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
      <Group justify="space-between">
        <Title order={2}>Settings</Title>
        <Switch
          label="Only settings changed on this topic"
          checked={onlyChanged}
          onChange={(e) => setOnlyChanged(e.currentTarget.checked)}
        />
      </Group>
      <ErrorAlert error={settings.error} />
      <Table striped aria-label="Settings">
        <TableHead headers={['Setting', 'Value', 'Source', isAdmin && 'Actions']} />
        <Table.Tbody>
          {shownSettings.map((s) => (
            <Table.Tr key={s.name}>
              <Table.Td>
                {s.name}
                {s.changed && (
                  <Badge ml={6} variant="light">
                    changed
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>{s.sensitive ? '(sensitive)' : (s.value ?? '')}</Table.Td>
              <Table.Td>{s.source}</Table.Td>
              {isAdmin && (
                <Table.Td>
                  {!s.readOnly && (
                    <Anchor component="button" onClick={() => setEditing(s)} aria-label={`Edit ${s.name}`}>
                      Edit
                    </Anchor>
                  )}
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <EditSetting
        topic={name}
        setting={editing}
        onClose={() => setEditing(undefined)}
        onSaved={() => {
          setEditing(undefined);
          settings.reload();
        }}
      />
      {p && (
        <>
          <AddPartitions partitions={p} {...growing.props} />
          <Purge partitions={p} {...purging.props} />
        </>
      )}
    </Stack>
  );
}

function EditSetting({
  topic,
  setting,
  onClose,
  onSaved,
}: {
  topic: string;
  setting: TopicSetting | undefined;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [value, setValue] = useState<string>();
  const { error, attempt, clear } = useActionError();
  const shown = value ?? setting?.value ?? '';
  const save = (change: { set?: Record<string, string>; reset?: string[] }) =>
    attempt(async () => {
      await api.changeTopicSettings(topic, change);
      notifications.show({ color: 'green', message: `${setting!.name} of ${topic} changed` });
      setValue(undefined);
    }, onSaved);
  const close = () => {
    setValue(undefined);
    clear();
    onClose();
  };
  return (
    <Modal opened={setting !== undefined} onClose={close} title={`Edit ${setting?.name ?? ''}`}>
      <Stack>
        <ErrorAlert error={error} />
        <TextInput label="Value" value={shown} onChange={(e) => setValue(e.currentTarget.value)} />
        <Group>
          <Button onClick={() => void save({ set: { [setting!.name]: shown } })}>Save</Button>
          {setting?.changed && (
            <Button variant="default" onClick={() => void save({ reset: [setting.name] })}>
              Reset to default
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

function AddPartitions({ partitions, opened, onClose, onDone }: DialogProps & { partitions: TopicPartitions }) {
  const current = partitions.partitions.length;
  const [total, setTotal] = useState<number | string>(current + 1);
  const { error, attempt } = useActionError();
  const submit = () =>
    attempt(async () => {
      await api.addPartitions(partitions.name, Number(total));
      notifications.show({ color: 'green', message: `${partitions.name} has ${countOf(Number(total), 'partition')}` });
    }, onDone);
  return (
    <Modal opened={opened} onClose={onClose} title={`Add partitions to ${partitions.name}`}>
      <Stack>
        <ErrorAlert error={error} />
        <Text size="sm">
          The topic has {countOf(current, 'partition')}. Partitions can be added, never removed; keys written later may
          go to another partition than before.
        </Text>
        <NumberInput label="New number of partitions" min={current + 1} value={total} onChange={setTotal} />
        <Button onClick={() => void submit()}>Add partitions</Button>
      </Stack>
    </Modal>
  );
}

function Purge({ partitions, opened, onClose, onDone }: DialogProps & { partitions: TopicPartitions }) {
  const { name } = partitions;
  const [mode, setMode] = useState<'offset' | 'time'>('offset');
  const [partition, setPartition] = useState<number | string>(0);
  const [offset, setOffset] = useState<number | string>(0);
  const [time, setTime] = useState('');
  const [typed, setTyped] = useState('');
  const { error, attempt } = useActionError();
  const submit = () =>
    attempt(async () => {
      const result =
        mode === 'offset'
          ? await api.purgeTopic(name, { confirm: typed, offsets: { [String(partition)]: Number(offset) } })
          : await api.purgeTopic(name, { confirm: typed, beforeTimestamp: parseTime(time) });
      notifications.show({
        color: 'green',
        message: `Purged ${name}: ${result.partitions.map((p) => `partition ${p.partition} now starts at ${p.lowOffset}`).join(', ')}`,
      });
      setTyped('');
    }, onDone);
  return (
    <Modal opened={opened} onClose={onClose} title={`Purge records of ${name}`}>
      <Stack>
        <ErrorAlert error={error} />
        <SegmentedControl
          aria-label="Purge up to"
          value={mode}
          onChange={(v) => setMode(v as 'offset' | 'time')}
          data={[
            { value: 'offset', label: 'An offset of a partition' },
            { value: 'time', label: 'A time, on every partition' },
          ]}
        />
        {mode === 'offset' ? (
          <Group grow>
            <NumberInput
              label="Partition"
              min={0}
              max={partitions.partitions.length - 1}
              value={partition}
              onChange={setPartition}
            />
            <NumberInput label="Delete records before offset" min={0} value={offset} onChange={setOffset} />
          </Group>
        ) : (
          <TextInput
            label="Delete records older than (ISO 8601)"
            placeholder={isoTimeExample}
            value={time}
            onChange={(e) => setTime(e.currentTarget.value)}
          />
        )}
        <Text size="sm">
          Deleted records are gone for every reader and cannot be restored. Type the topic's name to confirm.
        </Text>
        <TextInput label="Topic name" value={typed} onChange={(e) => setTyped(e.currentTarget.value)} />
        <Button color="red.9" disabled={typed !== name} onClick={() => void submit()}>
          Purge
        </Button>
      </Stack>
    </Modal>
  );
}
