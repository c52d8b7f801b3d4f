import {
  Alert,
  Badge,
  Button,
  CloseButton,
  FileButton,
  Group,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Rule } from '@weir/contract';
import { memo, useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import { api } from '../lib/api.ts';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { VirtualTable } from '../components/VirtualTable.tsx';
import { tactics, techniqueName } from '../lib/attack.ts';
import { download } from '../lib/download.ts';
import { errorText } from '../lib/errors.ts';
import { useRouter } from '../lib/router.tsx';
import { useSession } from '../lib/session.tsx';
import { usePoll } from '../lib/usePoll.ts';
import { severityColor } from '../lib/severity-colors.ts';
import { total, type Counters } from '../lib/cluster-metrics.ts';
import { useCluster } from '../lib/useCluster.ts';
import { RuleEditor } from './RuleEditor.tsx';
import { annotatesTechnique } from './coverage.ts';
import {
  filterFacets,
  filterRules,
  ruleFacets,
  severities,
  sortRules,
  type RuleSort,
  type SortKey,
} from './rule-filter.ts';

const severityChoices = severities.map((s) => ({ value: s, label: s }));
const tacticChoices = tactics.map((t) => ({ value: t.shortName, label: t.name }));
const tacticName = new Map(tactics.map((t) => [t.shortName, t.name]));
/** `/rules`: the table; `/rules/new` and `/rules/{id}`: the editor. */
export default function RulesPage() {
  const { path } = useRouter();
  const id = path.startsWith('/rules/') ? decodeURIComponent(path.slice('/rules/'.length)) : undefined;
  return id === undefined ? <RulesTable /> : <RuleEditor key={id} id={id === 'new' ? undefined : id} />;
}

function RulesTable() {
  const { isAdmin } = useSession();
  const { navigate } = useRouter();
  const rules = usePoll(() => api.rules.list(), 0);
  // each rule's alerts and suppressed alerts, over the cluster's nodes (docs/ui.md, "Rules")
  const cluster = useCluster(5000);
  const params = new URLSearchParams(window.location.search);
  const [search, setSearch] = useState(() => params.get('search') ?? '');
  // `?technique=T1110` (from the ATT&CK coverage page): the rules annotated with it or its sub-techniques.
  const [technique, setTechnique] = useState(() => params.get('technique') ?? undefined);
  const [severity, setSeverity] = useState<string | null>(() => params.get('severity'));
  const [tactic, setTactic] = useState<string | null>(() => params.get('tactic'));
  const [sort, setSort] = useState<RuleSort>();
  const [pending, setPending] = useState<Rule[]>();
  // The list filters on a deferred copy of the search, so typing never waits for the table.
  const deferred = useDeferredValue(search);
  const byTechnique = useMemo(
    () => (technique ? (rules.data ?? []).filter((r) => annotatesTechnique(r, technique)) : (rules.data ?? [])),
    [rules.data, technique],
  );
  const searched = useMemo(() => filterRules(byTechnique, deferred), [byTechnique, deferred]);
  const shown = useMemo(() => {
    const filtered = filterFacets(searched, { severity: severity ?? undefined, tactic: tactic ?? undefined });
    return sort ? sortRules(filtered, sort) : filtered;
  }, [searched, severity, tactic, sort]);
  // A header click sorts by its column, ascending first; a second click reverses the order.
  const onSort = useCallback(
    (key: SortKey) =>
      setSort((s) => ({
        key,
        direction: s?.key === key && s.direction === 'ascending' ? 'descending' : 'ascending',
      })),
    [],
  );
  const existing = useMemo(() => new Map((rules.data ?? []).map((r) => [r.id, r])), [rules.data]);
  const onOpen = useCallback((r: Rule) => navigate(`/rules/${encodeURIComponent(r.id)}`), [navigate]);
  const toggle = async (rule: Rule, enabled: boolean) => {
    try {
      await api.rules.update(rule.id, { ...rule, enabled });
      rules.reload();
    } catch (err) {
      notifications.show({ color: 'red', title: `Cannot update ${rule.id}`, message: errorText(err) });
    }
  };
  const toggleLatest = useRef(toggle);
  toggleLatest.current = toggle;
  const toggleRef = useCallback((r: Rule, on: boolean) => void toggleLatest.current(r, on), []);
  const pick = async (file: File | null) => {
    if (!file) return;
    try {
      const parsed = JSON.parse(await file.text()) as unknown;
      if (!Array.isArray(parsed)) throw new Error('the file must hold a JSON array of rules');
      setPending(parsed as Rule[]);
    } catch (err) {
      notifications.show({ color: 'red', title: `Cannot read ${file.name}`, message: errorText(err) });
    }
  };
  const apply = async () => {
    try {
      await api.rules.bulk(pending!);
      notifications.show({ color: 'green', message: `${pending!.length} rules imported` });
      setPending(undefined);
      rules.reload();
    } catch (err) {
      notifications.show({ color: 'red', title: 'Import refused', message: errorText(err) });
    }
  };
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Rules</Title>
        <Group>
          <Button variant="default" onClick={() => download('rules.json', JSON.stringify(rules.data ?? [], null, 2))}>
            Export JSON
          </Button>
          {isAdmin && (
            <FileButton onChange={(f) => void pick(f)} accept="application/json">
              {(props) => (
                <Button variant="default" {...props}>
                  Import JSON
                </Button>
              )}
            </FileButton>
          )}
          {isAdmin && (
            <Button variant="default" onClick={() => navigate('/sigma-import')}>
              Import Sigma
            </Button>
          )}
          {isAdmin && <Button onClick={() => navigate('/rules/new')}>New rule</Button>}
        </Group>
      </Group>
      <ErrorAlert error={rules.error} />
      {pending && (
        <Alert color="blue" title="Import: review the changes" role="status">
          <Stack gap="xs">
            {pending.map((r) => {
              const old = existing.get(r.id);
              const state = !old
                ? 'new'
                : JSON.stringify(old) === JSON.stringify({ ...old, ...r })
                  ? 'unchanged'
                  : 'changed';
              return (
                <Text size="sm" key={r.id}>
                  <Badge
                    size="xs"
                    variant="dot"
                    color={state === 'new' ? 'green' : state === 'changed' ? 'yellow' : 'gray'}
                  >
                    {state}
                  </Badge>{' '}
                  {r.id}
                  {state === 'changed' && old?.pdl !== r.pdl ? ` — PDL: ${old?.pdl} → ${r.pdl}` : ''}
                </Text>
              );
            })}
            <Group>
              <Button size="xs" onClick={() => void apply()}>
                Apply {pending.length} rules
              </Button>
              <Button size="xs" variant="default" onClick={() => setPending(undefined)}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      <Group align="end" grow>
        <TextInput
          label="Search rules"
          placeholder="id, name, PDL or technique"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        <Select
          label="Severity"
          placeholder="any"
          data={severityChoices}
          value={severity}
          onChange={setSeverity}
          clearable
          clearButtonProps={{ 'aria-label': 'Clear Severity', 'aria-hidden': false, tabIndex: 0 }}
          maw={220}
        />
        <Select
          label="Tactic"
          placeholder="any"
          data={tacticChoices}
          value={tactic}
          onChange={setTactic}
          searchable
          clearable
          clearButtonProps={{ 'aria-label': 'Clear Tactic', 'aria-hidden': false, tabIndex: 0 }}
          maw={280}
        />
      </Group>
      {technique && (
        <Group gap="xs" data-testid="technique-filter">
          <Badge variant="light" size="lg">
            Technique {technique}
            {techniqueName(technique) ? ` ${techniqueName(technique)}` : ''}
          </Badge>
          <CloseButton
            size="sm"
            aria-label={`Clear the technique filter ${technique}`}
            onClick={() => setTechnique(undefined)}
          />
        </Group>
      )}
      <RuleRows
        rules={shown}
        isAdmin={isAdmin}
        onToggle={toggleRef}
        onOpen={onOpen}
        sort={sort}
        onSort={onSort}
        counts={cluster.reading?.totals}
      />
      <Text size="sm" data-testid="rule-count">
        {shown.length} of {rules.data?.length ?? 0} rules
      </Text>
    </Stack>
  );
}

const rowHeight = 40;
const columns = '80px 200px 220px 110px 80px 100px 260px 200px 1fr';
const sortable: readonly (readonly [SortKey, string])[] = [
  ['enabled', 'Enabled'],
  ['id', 'Id'],
  ['name', 'Name'],
];

/**
 * The rules as a virtualised ARIA table: only the visible rows are rendered (10,000 rules stay
 * fast); memoised, so a keystroke in the search re-renders it once, when the filtered list changes.
 */
const RuleRows = memo(function RuleRows({
  rules,
  isAdmin,
  onToggle,
  onOpen,
  sort,
  onSort,
  counts,
}: {
  rules: readonly Rule[];
  /** The cluster's totals (alerts and suppressed alerts per rule since each node started), once read. */
  counts: Counters | undefined;
  isAdmin: boolean;
  onToggle: (r: Rule, on: boolean) => void;
  onOpen: (r: Rule) => void;
  sort: RuleSort | undefined;
  onSort: (key: SortKey) => void;
}) {
  const header = (key: SortKey, label: string) => ({
    label,
    sort: sort?.key === key ? sort.direction : ('none' as const),
    onSort: () => onSort(key),
  });
  const cell = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;
  return (
    <VirtualTable
      label="Rules"
      headers={[
        ...sortable.map(([key, label]) => header(key, label)),
        header('severity', 'Severity'),
        'Alerts',
        'Suppressed',
        'ATT&CK',
        'Tactics',
        'PDL',
      ]}
      columns={columns}
      rowCount={rules.length}
      rowHeight={rowHeight}
      height={520}
      overscan={10}
      gap={8}
      headerPadding="6px 8px"
      renderRow={(index, row) => {
        const r = rules[index]!;
        const f = ruleFacets(r);
        return (
          <div
            key={r.id}
            {...row}
            data-testid="rule-row"
            style={{ ...row.style, alignItems: 'center', padding: '0 8px' }}
          >
            <span role="cell">
              <Switch
                aria-label={`Rule ${r.id} enabled`}
                checked={r.enabled}
                disabled={!isAdmin}
                onChange={(e) => onToggle(r, e.currentTarget.checked)}
              />
            </span>
            <span role="cell" style={cell}>
              <a
                href={`/rules/${encodeURIComponent(r.id)}`}
                onClick={(e) => {
                  e.preventDefault();
                  onOpen(r);
                }}
              >
                {r.id}
              </a>
            </span>
            <span role="cell" style={cell}>
              {r.name}
            </span>
            <span role="cell" style={cell}>
              <Badge variant="dot" size="sm" color={severityColor[f.severity]} style={{ textTransform: 'none' }}>
                {f.severity}
              </Badge>
            </span>
            <span role="cell" style={cell}>
              {counts ? total(counts, 'rule', r.id).toLocaleString('en-US') : ''}
            </span>
            <span role="cell" style={cell}>
              {counts ? total(counts, 'suppressed', r.id).toLocaleString('en-US') : ''}
            </span>
            <span role="cell" style={cell}>
              {f.techniques.map((t) => (
                <Badge
                  key={t}
                  variant="outline"
                  size="sm"
                  mr={4}
                  title={techniqueName(t) ?? 'not in the shipped ATT&CK table'}
                  style={{ textTransform: 'none' }}
                >
                  {t}
                  {techniqueName(t) ? ` ${techniqueName(t)}` : ''}
                </Badge>
              ))}
            </span>
            <span role="cell" style={cell}>
              {f.tactics.map((t) => tacticName.get(t) ?? t).join(', ')}
            </span>
            <span role="cell" style={{ ...cell, fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 }}>
              {r.pdl}
            </span>
          </div>
        );
      }}
    />
  );
});
