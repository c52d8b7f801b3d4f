import { Anchor, Badge, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import type { ConsumerGroupSummary } from '@weir/client';
import { memo, useDeferredValue, useMemo, useState } from 'react';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { VirtualTable } from '../components/VirtualTable.tsx';
import { api } from '../lib/api.ts';
import { useRouter } from '../lib/router.tsx';
import { usePoll } from '../lib/usePoll.ts';

const stateColor = (state: string) => (state === 'Stable' ? 'green' : state === 'Empty' ? 'gray' : 'yellow');

/** A group's state as a dot badge (the light variant's green text on green, 3.8:1, fails WCAG AA). */
export function GroupState({ state }: { state: string }) {
  return (
    <Badge color={stateColor(state)} variant="dot" style={{ textTransform: 'none' }}>
      {state}
    </Badge>
  );
}

/** Links to the topologies whose stream threads form a group; nothing for the many groups that run none. */
export function TopologyLinks({ topologies }: { topologies: { id: number; name: string }[] }) {
  const { navigate } = useRouter();
  if (topologies.length === 0) return null;
  return (
    <Group gap={6} wrap="nowrap">
      {topologies.map((t) => (
        <Anchor
          key={t.id}
          href={`/topologies/${t.id}`}
          onClick={(e) => {
            e.preventDefault();
            navigate(`/topologies/${t.id}`);
          }}
        >
          {t.name}
        </Anchor>
      ))}
    </Group>
  );
}

/** The list of consumer groups: a search (in the URL's `search`, so a link keeps it) and the virtualised table. */
export function ConsumerGroupList() {
  const { navigate } = useRouter();
  const groups = usePoll(() => api.consumerGroups(), 10_000);
  const [search, setSearch] = useState(() => new URLSearchParams(window.location.search).get('search') ?? '');
  // The list filters on a deferred copy of the search, so typing never waits for the table.
  const deferred = useDeferredValue(search);
  const shown = useMemo(
    () => (groups.data ?? []).filter((g) => g.id.toLowerCase().includes(deferred.toLowerCase())),
    [groups.data, deferred],
  );
  return (
    <Stack>
      <Title order={1}>Consumer groups</Title>
      <ErrorAlert error={groups.error} />
      <TextInput
        label="Search groups"
        placeholder="id contains…"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
      />
      <GroupRows groups={shown} navigate={navigate} />
      <Text size="sm" data-testid="group-count">
        {shown.length} of {groups.data?.length ?? 0} groups
      </Text>
    </Stack>
  );
}

const rowHeight = 40;
const headerHeight = 38;
const maxHeight = 600;
const cell = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;

/**
 * The groups as a virtualised ARIA table (issue 23: 200 groups and more): only the rows in its
 * scroll box and ten each side are in the page; memoised, so a keystroke in the search re-renders
 * it once, when the filtered list changes.
 */
const GroupRows = memo(function GroupRows({
  groups,
  navigate,
}: {
  groups: readonly ConsumerGroupSummary[];
  navigate: (to: string) => void;
}) {
  return (
    <VirtualTable
      label="Consumer groups"
      headers={['Group', 'State', 'Members', 'Lag', 'Topologies']}
      columns="minmax(0, 2fr) 110px 90px 120px minmax(0, 1fr)"
      rowCount={groups.length}
      rowHeight={rowHeight}
      height={Math.min(maxHeight, headerHeight + groups.length * rowHeight + 2)}
      overscan={10}
      gap={8}
      headerPadding="8px 10px"
      renderRow={(index, row) => {
        const g = groups[index]!;
        const href = `/groups/${encodeURIComponent(g.id)}`;
        return (
          <div
            key={g.id}
            {...row}
            style={{
              ...row.style,
              alignItems: 'center',
              padding: '0 10px',
              borderBottom: '1px solid var(--mantine-color-default-border)',
              background: index % 2 === 0 ? 'var(--mantine-color-default-hover)' : undefined,
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
                {g.id}
              </Anchor>
            </span>
            <span role="cell">
              <GroupState state={g.state} />
            </span>
            <span role="cell">{g.members}</span>
            <span role="cell">{g.lag.toLocaleString('en-US')}</span>
            <span role="cell" style={cell}>
              <TopologyLinks topologies={g.topologies} />
            </span>
          </div>
        );
      }}
    />
  );
});
