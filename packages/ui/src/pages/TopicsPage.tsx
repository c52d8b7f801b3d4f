import {
  Anchor,
  Button,
  Group,
  Modal,
  NumberInput,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { BrokerTopic } from '@weir/contract';
import { memo, useCallback, useDeferredValue, useMemo, useState } from 'react';
import { api } from '../lib/api.ts';
import { DeleteButton } from '../components/DeleteButton.tsx';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { RecordDrawer } from '../components/RecordDrawer.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { VirtualTable } from '../components/VirtualTable.tsx';
import { errorText } from '../lib/errors.ts';
import { useRouter } from '../lib/router.tsx';
import { useSession } from '../lib/session.tsx';
import { usePoll } from '../lib/usePoll.ts';
import { usePathId } from '../lib/path-id.ts';
import { TopicDetail } from './TopicDetail.tsx';

/**
 * Topics: search, describe (every effective config), create, delete with typed confirmation; a
 * topic's own page (`/topics/<name>`) shows it in depth (TopicDetail.tsx).
 */
export default function TopicsPage() {
  const { id, close } = usePathId('/topics');
  return id === undefined ? <TopicList /> : <TopicDetail name={id} onBack={close} />;
}

function TopicList() {
  const { isAdmin } = useSession();
  const { navigate } = useRouter();
  const topics = usePoll(() => api.topics(), 0);
  const [search, setSearch] = useState(() => new URLSearchParams(window.location.search).get('search') ?? '');
  const [described, setDescribed] = useState<BrokerTopic>();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<string>();
  // The topic just created in the Create topic dialog: scrolled into view and marked until the next search.
  const [created, setCreated] = useState<string>();
  // The list filters on a deferred copy of the search, so typing never waits for the table.
  const deferred = useDeferredValue(search);
  const shown = useMemo(
    () => (topics.data ?? []).filter((t) => t.toLowerCase().includes(deferred.toLowerCase())).sort(),
    [topics.data, deferred],
  );
  const describe = useCallback(async (name: string) => {
    try {
      setDescribed(await api.topic(name));
    } catch (err) {
      notifications.show({ color: 'red', title: `Cannot describe ${name}`, message: errorText(err) });
    }
  }, []);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Topics</Title>
        {isAdmin && <Button onClick={() => setCreating(true)}>Create topic</Button>}
      </Group>
      <ErrorAlert error={topics.error} />
      <TextInput
        label="Search topics"
        placeholder="name contains…"
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setCreated(undefined);
        }}
      />
      <TopicRows
        topics={shown}
        isAdmin={isAdmin}
        created={created}
        navigate={navigate}
        onDescribe={describe}
        onDelete={setDeleting}
      />
      <Text size="sm" data-testid="topic-count">
        {shown.length} of {topics.data?.length ?? 0} topics
      </Text>
      <RecordDrawer
        opened={described !== undefined}
        onClose={() => setDescribed(undefined)}
        title={`Topic ${described?.name ?? ''}`}
        size="lg"
      >
        {described && (
          <Stack>
            <Text>
              Partitions: {described.numberOfPartitions} · Replication factor: {described.replicationFactor}
            </Text>
            <Table>
              <TableHead headers={['Config', 'Value']} />
              <Table.Tbody>
                {Object.entries(described.options ?? {})
                  .sort()
                  .map(([k, v]) => (
                    <Table.Tr key={k}>
                      <Table.Td>{k}</Table.Td>
                      <Table.Td>{v}</Table.Td>
                    </Table.Tr>
                  ))}
              </Table.Tbody>
            </Table>
          </Stack>
        )}
      </RecordDrawer>
      <CreateTopic
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(name) => {
          setCreating(false);
          setCreated(name);
          topics.reload();
        }}
      />
      <DeleteTopic
        name={deleting}
        onClose={() => setDeleting(undefined)}
        onDeleted={() => {
          setDeleting(undefined);
          topics.reload();
        }}
      />
    </Stack>
  );
}

const rowHeight = 40;
const headerHeight = 38;
const maxHeight = 600;

/**
 * The topics as a virtualised ARIA table (issue 23: 1,000 topics): only the visible rows are in the
 * page, in a box as tall as its rows up to `maxHeight`; memoised, so a keystroke in the search
 * re-renders it once, when the filtered list changes. A topic just created is scrolled into view.
 */
const TopicRows = memo(function TopicRows({
  topics,
  isAdmin,
  created,
  navigate,
  onDescribe,
  onDelete,
}: {
  topics: readonly string[];
  isAdmin: boolean;
  created: string | undefined;
  navigate: (to: string) => void;
  onDescribe: (name: string) => Promise<void>;
  onDelete: (name: string) => void;
}) {
  const cell = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;
  return (
    <VirtualTable
      label="Topics"
      headers={['Name', 'Actions']}
      columns={`minmax(0, 1fr) ${isAdmin ? 240 : 170}px`}
      rowCount={topics.length}
      rowHeight={rowHeight}
      height={Math.min(maxHeight, headerHeight + topics.length * rowHeight + 2)}
      overscan={10}
      gap={8}
      headerPadding="8px 10px"
      scrollToIndex={created === undefined ? undefined : topics.indexOf(created)}
      renderRow={(index, row) => {
        const name = topics[index]!;
        const href = `/topics/${encodeURIComponent(name)}`;
        return (
          <div
            key={name}
            {...row}
            aria-current={name === created ? 'true' : undefined}
            style={{
              ...row.style,
              alignItems: 'center',
              padding: '0 10px',
              borderBottom: '1px solid var(--mantine-color-default-border)',
              background: index % 2 === 0 ? 'var(--mantine-color-default-hover)' : undefined,
              boxShadow: name === created ? 'inset 4px 0 0 var(--mantine-primary-color-filled)' : undefined,
            }}
          >
            <span role="cell" style={cell}>
              <Anchor
                href={href}
                onClick={(e) => {
                  e.preventDefault();
                  navigate(href);
                }}
              >
                {name}
              </Anchor>
            </span>
            <span role="cell">
              <Group gap="xs" wrap="nowrap">
                <Button
                  size="compact-xs"
                  variant="outline"
                  onClick={() => void onDescribe(name)}
                  aria-label={`Describe ${name}`}
                >
                  Describe
                </Button>
                <Button
                  size="compact-xs"
                  variant="outline"
                  onClick={() => navigate(`/messages?topic=${encodeURIComponent(name)}`)}
                  aria-label={`Messages of ${name}`}
                >
                  Messages
                </Button>
                {isAdmin && <DeleteButton what={name} onClick={() => onDelete(name)} />}
              </Group>
            </span>
          </div>
        );
      }}
    />
  );
});

function CreateTopic({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (name: string) => void;
}) {
  const [name, setName] = useState('');
  const [partitions, setPartitions] = useState<number | string>(1);
  const [replication, setReplication] = useState<number | string>(1);
  const [options, setOptions] = useState('');
  const [error, setError] = useState<string>();
  const submit = async () => {
    try {
      const opts = Object.fromEntries(
        options
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean)
          .map((l) => {
            const i = l.indexOf('=');
            if (i <= 0) throw new Error(`option line "${l}" must be name=value`);
            return [l.slice(0, i).trim(), l.slice(i + 1).trim()];
          }),
      );
      await api.createTopic({
        name,
        numberOfPartitions: Number(partitions),
        replicationFactor: Number(replication),
        options: opts,
      });
      notifications.show({ color: 'green', message: `Topic ${name} created` });
      setName('');
      setError(undefined);
      onCreated(name);
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Create topic">
      <Stack>
        <ErrorAlert error={error} />
        <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <NumberInput label="Partitions" min={1} value={partitions} onChange={setPartitions} />
        <NumberInput label="Replication factor" min={1} value={replication} onChange={setReplication} />
        <Textarea
          label="Options (one name=value per line)"
          placeholder="cleanup.policy=compact"
          value={options}
          onChange={(e) => setOptions(e.currentTarget.value)}
        />
        <Button onClick={() => void submit()}>Create</Button>
      </Stack>
    </Modal>
  );
}

function DeleteTopic({
  name,
  onClose,
  onDeleted,
}: {
  name: string | undefined;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string>();
  const submit = async () => {
    try {
      await api.deleteTopic(name!);
      setTyped('');
      onDeleted();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <Modal opened={name !== undefined} onClose={onClose} title={`Delete topic ${name ?? ''}`}>
      <Stack>
        <ErrorAlert error={error} />
        <Text size="sm">This deletes the topic and all its messages. Type its name to confirm.</Text>
        <TextInput label="Topic name" value={typed} onChange={(e) => setTyped(e.currentTarget.value)} />
        <Button color="red.9" disabled={typed !== name} onClick={() => void submit()}>
          Delete
        </Button>
      </Stack>
    </Modal>
  );
}
