import {
  Anchor,
  Badge,
  Button,
  Checkbox,
  CloseButton,
  Group,
  Modal,
  MultiSelect,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import type { AlertPage, AlertTriageChange, AlertView } from '@weir/client';
import { alertResolutions, alertStatuses, severities, type AlertResolution } from '@weir/contract';
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { AlertDrawer, ConsoleLink } from '../components/AlertDrawer.tsx';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { alertEntity } from '../lib/alert-entity.ts';
import { api } from '../lib/api.ts';
import { download } from '../lib/download.ts';
import { errorText } from '../lib/errors.ts';
import { countOf } from '../lib/kind-labels.ts';
import { useRouter } from '../lib/router.tsx';
import { alertStatusColor, severityColor } from '../lib/severity-colors.ts';
import { usePoll } from '../lib/usePoll.ts';
import {
  activeFilters,
  alertQuery,
  groupBy,
  groupFilter,
  mergeNewest,
  timeRanges,
  withParam,
} from './alert-filters.ts';

const livePollMs = 5000;
const time = (ms: number) => new Date(ms).toISOString();

/**
 * `/alerts` (docs/ui.md, "Alerts"): the alert store as a triage list — filters and grouping in the
 * URL, live (the first page polled every 5 s and merged in), "Load more" by cursor, a selection with
 * bulk Acknowledge and Close; `/alerts/{id}` opens an alert's detail in a drawer over the list.
 */
export default function AlertsPage() {
  const { path, search, navigate } = useRouter();
  const detailId = path.startsWith('/alerts/') ? decodeURIComponent(path.slice('/alerts/'.length)) : undefined;
  const setSearch = (next: string) => navigate(`/alerts${next}`);
  const first = usePoll(
    async () => ({ search, page: await api.alerts({ ...alertQuery(search, Date.now()), limit: 100 }) }),
    livePollMs,
    [search],
  );
  const [loaded, setLoaded] = useState<{ search: string; alerts: AlertView[]; cursor: string | null }>();
  const [moreError, setMoreError] = useState<string>();
  const [loadingMore, setLoadingMore] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [closing, setClosing] = useState(false);
  useEffect(() => {
    const d = first.data;
    if (!d || d.search !== search) return;
    setLoaded((l) =>
      l && l.search === search
        ? { ...l, alerts: mergeNewest(l.alerts, d.page.alerts) }
        : { search, alerts: d.page.alerts, cursor: d.page.nextCursor },
    );
  }, [first.data]);
  useEffect(() => setSelected(new Set()), [search]);
  const current = loaded?.search === search ? loaded : undefined;
  const alerts = current?.alerts ?? [];
  const applied = (changed: AlertView[]) => setLoaded((l) => l && { ...l, alerts: mergeNewest(l.alerts, changed) });

  const loadMore = async () => {
    if (!current?.cursor) return;
    setLoadingMore(true);
    setMoreError(undefined);
    try {
      const page: AlertPage = await api.alerts({
        ...alertQuery(search, Date.now()),
        limit: 100,
        cursor: current.cursor,
      });
      setLoaded((l) =>
        l && l.search === search ? { ...l, alerts: mergeNewest(l.alerts, page.alerts), cursor: page.nextCursor } : l,
      );
    } catch (err) {
      setMoreError(errorText(err));
    } finally {
      setLoadingMore(false);
    }
  };

  const bulk = async (change: AlertTriageChange, done: string) => {
    try {
      applied(await api.triageAlerts([...selected], change));
      notifications.show({ color: 'green', message: `${countOf(selected.size, 'alert')} ${done}` });
      setSelected(new Set());
      return true;
    } catch (err) {
      notifications.show({ color: 'red', message: errorText(err) });
      return false;
    }
  };

  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const allSelected = alerts.length > 0 && alerts.every((a) => selected.has(a.id));
  const by = groupBy(search);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Alerts</Title>
        <Button
          variant="default"
          size="xs"
          disabled={alerts.length === 0}
          onClick={() =>
            download('alerts.ndjson', alerts.map((a) => JSON.stringify(a)).join('\n') + '\n', 'application/x-ndjson')
          }
        >
          Export NDJSON
        </Button>
      </Group>
      <AlertFilters search={search} setSearch={setSearch} />
      <GroupBy search={search} setSearch={setSearch} />
      {by && <AlertGroupsTable search={search} by={by} setSearch={setSearch} />}
      <ErrorAlert error={first.error} />
      <Group justify="space-between" mih={30}>
        <Text size="sm" data-testid="alert-count" aria-live="polite">
          {current ? `${countOf(alerts.length, 'alert')}${current.cursor ? ' loaded, more to load' : ''}` : 'Loading…'}
          {' · live, every 5 s'}
        </Text>
        {selected.size > 0 && (
          <Group gap="xs" data-testid="bulk-actions">
            <Text size="sm">{selected.size} selected</Text>
            <Button size="xs" onClick={() => void bulk({ status: 'acknowledged' }, 'acknowledged')}>
              Acknowledge
            </Button>
            <Button size="xs" variant="outline" onClick={() => setClosing(true)}>
              Close…
            </Button>
          </Group>
        )}
      </Group>
      <Table striped highlightOnHover aria-label="Alerts">
        <TableHead
          headers={[
            <Checkbox
              key="all"
              aria-label="Select every alert shown"
              checked={allSelected}
              indeterminate={selected.size > 0 && !allSelected}
              onChange={(e) => setSelected(e.currentTarget.checked ? new Set(alerts.map((a) => a.id)) : new Set())}
            />,
            'Time',
            'Severity',
            'Rule',
            'Techniques',
            'Entity',
            'Status',
            'Assignee',
            'Silenced',
          ]}
        />
        <Table.Tbody>
          {alerts.map((a) => (
            <AlertRow
              key={a.id}
              alert={a}
              selected={selected.has(a.id)}
              onSelect={(on) => toggle(a.id, on)}
              onOpen={() => navigate(`/alerts/${encodeURIComponent(a.id)}${search}`)}
            />
          ))}
        </Table.Tbody>
      </Table>
      {current && alerts.length === 0 && <Text c="dimmed">No alerts match.</Text>}
      <ErrorAlert error={moreError} />
      {current?.cursor && (
        <Group>
          <Button variant="default" loading={loadingMore} onClick={() => void loadMore()}>
            Load more
          </Button>
        </Group>
      )}
      {closing && (
        <CloseDialog
          count={selected.size}
          onCancel={() => setClosing(false)}
          onClose={async (resolution, note) => {
            if (await bulk({ status: 'closed', resolution, ...(note ? { note } : {}) }, 'closed')) setClosing(false);
          }}
        />
      )}
      {detailId !== undefined && (
        <AlertDrawer id={detailId} onChanged={(a) => applied([a])} onClose={() => navigate(`/alerts${search}`)} />
      )}
      <Text size="xs" c="dimmed">
        The raw records of the alerts topic, live: Messages, the alerts topic (weir_alerts by default), Live.
      </Text>
    </Stack>
  );
}

function AlertRow({
  alert: a,
  selected,
  onSelect,
  onOpen,
}: {
  alert: AlertView;
  selected: boolean;
  onSelect: (on: boolean) => void;
  onOpen: () => void;
}) {
  const entity = alertEntity(a.record as Record<string, unknown>);
  const silenced = a.silencedBy ?? [];
  return (
    <Table.Tr data-testid="alert-row" onClick={onOpen} style={{ cursor: 'pointer' }}>
      <Table.Td onClick={(e) => e.stopPropagation()}>
        <Checkbox
          aria-label={`Select alert ${a.id}`}
          checked={selected}
          onChange={(e) => onSelect(e.currentTarget.checked)}
        />
      </Table.Td>
      <Table.Td>
        <Anchor
          href={`/alerts/${a.id}`}
          onClick={(e: MouseEvent) => {
            e.preventDefault();
            e.stopPropagation();
            onOpen();
          }}
          aria-label={`Alert ${a.id} at ${time(a.time)}`}
        >
          {time(a.time)}
        </Anchor>
      </Table.Td>
      <Table.Td>
        <Badge color={severityColor[a.severity]} variant="dot" style={{ textTransform: 'none' }}>
          {a.severity}
        </Badge>
      </Table.Td>
      <Table.Td>
        {a.rule.id === null ? (
          '—'
        ) : (
          <Stack gap={0}>
            <ConsoleLink to={`/rules/${encodeURIComponent(a.rule.id)}`}>{a.rule.id}</ConsoleLink>
            {a.rule.name && a.rule.name !== a.rule.id && (
              <Text size="xs" c="dimmed">
                {a.rule.name}
              </Text>
            )}
          </Stack>
        )}
      </Table.Td>
      <Table.Td>{a.techniques.join(', ')}</Table.Td>
      <Table.Td>{entity.map((e) => `${e.path}=${e.value}`).join(' ')}</Table.Td>
      <Table.Td>
        <Badge color={alertStatusColor[a.status]} variant="dot" style={{ textTransform: 'none' }}>
          {a.status}
          {a.resolution ? `: ${a.resolution}` : ''}
        </Badge>
      </Table.Td>
      <Table.Td>{a.assignee ?? ''}</Table.Td>
      <Table.Td>
        {silenced.length > 0 && (
          <Badge variant="default" style={{ textTransform: 'none' }} title={`Silenced by ${silenced.join(', ')}`}>
            silenced
          </Badge>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** A text filter kept in the URL, written there 400 ms after typing stops. */
function TextFilter({
  label,
  name,
  search,
  setSearch,
  placeholder,
}: {
  label: string;
  name: string;
  search: string;
  setSearch: (s: string) => void;
  placeholder?: string;
}) {
  const urlValue = new URLSearchParams(search).get(name) ?? '';
  const [value, setValue] = useState(urlValue);
  const latest = useRef(search);
  latest.current = search;
  // The URL changed elsewhere (a link, Back): show its value; not while typing (a trailing space stays).
  useEffect(() => {
    if (urlValue !== value.trim()) setValue(urlValue);
  }, [urlValue]);
  const commit = useDebouncedCallback((v: string) => setSearch(withParam(latest.current, name, v.trim())), 400);
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      value={value}
      onChange={(e) => {
        setValue(e.currentTarget.value);
        commit(e.currentTarget.value);
      }}
      maw={200}
    />
  );
}

function AlertFilters({ search, setSearch }: { search: string; setSearch: (s: string) => void }) {
  const params = new URLSearchParams(search);
  const chips = activeFilters(search).filter((f) => f.key.startsWith('field.'));
  return (
    <Stack gap="xs">
      <Group align="end" gap="sm">
        <Select
          label="Time"
          allowDeselect={false}
          data={[
            { value: 'all', label: 'all time' },
            ...Object.keys(timeRanges).map((r) => ({ value: r, label: `last ${r}` })),
          ]}
          value={params.get('range') ?? 'all'}
          onChange={(v) => setSearch(withParam(search, 'range', v === 'all' ? undefined : (v ?? undefined)))}
          maw={130}
        />
        <MultiSelect
          label="Severity"
          placeholder={params.has('severity') ? undefined : 'any'}
          data={[...severities].reverse()}
          value={params.getAll('severity')}
          onChange={(v) => setSearch(withParam(search, 'severity', v))}
          maw={260}
        />
        <MultiSelect
          label="Status"
          placeholder={params.has('status') ? undefined : 'any'}
          data={[...alertStatuses]}
          value={params.getAll('status')}
          onChange={(v) => setSearch(withParam(search, 'status', v))}
          maw={260}
        />
        <TextFilter label="Rule id" name="rule" search={search} setSearch={setSearch} />
        <TextFilter label="Technique" name="technique" search={search} setSearch={setSearch} placeholder="T1110" />
        <TextFilter label="Assignee" name="assignee" search={search} setSearch={setSearch} />
        <TextFilter label="Text" name="q" search={search} setSearch={setSearch} placeholder="anywhere in the alert" />
      </Group>
      {chips.length > 0 && (
        <Group gap="xs" data-testid="field-filters">
          {chips.map((c) => (
            <Badge
              key={c.key}
              variant="light"
              size="lg"
              rightSection={
                <CloseButton
                  size="xs"
                  aria-label={`Clear the filter ${c.key.slice(6)}=${c.value}`}
                  onClick={() => setSearch(withParam(search, c.key, undefined))}
                />
              }
            >
              {c.key.slice(6)}={c.value}
            </Badge>
          ))}
        </Group>
      )}
    </Stack>
  );
}

function GroupBy({ search, setSearch }: { search: string; setSearch: (s: string) => void }) {
  const by = groupBy(search);
  const mode = by === undefined ? 'none' : by === 'rule' ? 'rule' : 'field';
  const [field, setField] = useState(by?.startsWith('field:') ? by.slice(6) : 'user');
  const set = (next: string, f = field) =>
    setSearch(withParam(search, 'group', next === 'none' ? undefined : next === 'rule' ? 'rule' : `field:${f}`));
  return (
    <Group align="end" gap="sm">
      <Stack gap={2}>
        <Text size="sm" fw={500} id="group-by-label">
          Group by
        </Text>
        <SegmentedControl
          aria-labelledby="group-by-label"
          value={mode}
          onChange={(v) => set(v)}
          data={[
            { value: 'none', label: 'none' },
            { value: 'rule', label: 'rule' },
            { value: 'field', label: 'field' },
          ]}
        />
      </Stack>
      {mode === 'field' && (
        <TextInput
          label="Group field"
          description="a path of the alert: user, host.name"
          value={field}
          onChange={(e) => setField(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Enter' && field.trim() && set('field', field.trim())}
          onBlur={() => field.trim() && set('field', field.trim())}
          maw={220}
        />
      )}
    </Group>
  );
}

/** The groups endpoint over the list's time range: a row per rule or field value; a click filters the list by it. */
function AlertGroupsTable({ search, by, setSearch }: { search: string; by: string; setSearch: (s: string) => void }) {
  const query = alertQuery(search, Date.now());
  const groups = usePoll(
    () => api.alertGroups({ by, ...(query.from ? { from: query.from } : {}), ...(query.to ? { to: query.to } : {}) }),
    livePollMs,
    [by, search],
  );
  const label = by === 'rule' ? 'Rule' : by.slice(6);
  return (
    <Stack gap="xs">
      <ErrorAlert error={groups.error} />
      <Table aria-label="Alert groups" withTableBorder>
        <TableHead headers={[label, 'Alerts', 'First seen', 'Last seen']} />
        <Table.Tbody>
          {(groups.data?.groups ?? []).map((g) => {
            const to = groupFilter(search, by, g.key);
            return (
              <Table.Tr key={g.key ?? '\u0000'} data-testid="alert-group">
                <Table.Td>
                  {to === undefined ? (
                    <Text c="dimmed">(absent)</Text>
                  ) : (
                    <Anchor
                      href={`/alerts${to}`}
                      aria-label={`Show the alerts of ${label} ${g.key}`}
                      onClick={(e: MouseEvent) => {
                        e.preventDefault();
                        setSearch(to);
                      }}
                    >
                      {g.key}
                    </Anchor>
                  )}
                </Table.Td>
                <Table.Td>{g.count}</Table.Td>
                <Table.Td>{time(g.firstSeen)}</Table.Td>
                <Table.Td>{time(g.lastSeen)}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {groups.data && (
        <Text size="sm" data-testid="group-count">
          {countOf(groups.data.groups.length, 'group')}
          {groups.data.groups.length === 1000 ? ' (the largest 1000)' : ''}
        </Text>
      )}
    </Stack>
  );
}

/** Close asks the resolution (the API requires one) and takes an optional note. */
export function CloseDialog({
  count,
  onCancel,
  onClose,
}: {
  count: number;
  onCancel: () => void;
  onClose: (resolution: AlertResolution, note: string) => Promise<void>;
}) {
  const [resolution, setResolution] = useState<AlertResolution | null>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <Modal opened onClose={onCancel} title={`Close ${countOf(count, 'alert')}`}>
      <Stack>
        <Select
          label="Resolution"
          required
          data={alertResolutions.map((r) => ({ value: r, label: r.replace('_', ' ') }))}
          value={resolution}
          onChange={(v) => setResolution(v as AlertResolution | null)}
        />
        <Textarea label="Note" autosize minRows={2} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
        <Group>
          <Button
            disabled={resolution === null}
            loading={busy}
            onClick={async () => {
              setBusy(true);
              await onClose(resolution!, note.trim());
              setBusy(false);
            }}
          >
            Close alerts
          </Button>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
