import { Alert, Badge, Button, FileButton, Group, Stack, Switch, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Rule } from '@weir/client';
import { useMemo, useState } from 'react';
import { api } from '../api.ts';
import { techniqueName } from '../attack.ts';
import { download } from '../download.ts';
import { errorText } from '../errors.ts';
import { useRouter } from '../router.tsx';
import { useSession } from '../session.tsx';
import { usePoll } from '../usePoll.ts';
import { RuleEditor } from './RuleEditor.tsx';
import { filterRules } from './rule-filter.ts';

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
  const [search, setSearch] = useState('');
  const [pending, setPending] = useState<Rule[]>();
  const shown = useMemo(() => filterRules(rules.data ?? [], search), [rules.data, search]);
  const toggle = async (rule: Rule, enabled: boolean) => {
    try {
      await api.rules.update(rule.id, { ...rule, enabled });
      rules.reload();
    } catch (err) {
      notifications.show({ color: 'red', title: `Cannot update ${rule.id}`, message: errorText(err) });
    }
  };
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
  const existing = new Map((rules.data ?? []).map((r) => [r.id, r]));
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Rules</Title>
        <Group>
          <Button variant="default" onClick={() => download('rules.json', JSON.stringify(rules.data ?? [], null, 2))}>Export JSON</Button>
          {isAdmin && <FileButton onChange={(f) => void pick(f)} accept="application/json">{(props) => <Button variant="default" {...props}>Import JSON</Button>}</FileButton>}
          {isAdmin && <Button onClick={() => navigate('/rules/new')}>New rule</Button>}
        </Group>
      </Group>
      {rules.error && <Alert color="red" role="alert">{rules.error}</Alert>}
      {pending && (
        <Alert color="blue" title="Import: review the changes" role="status">
          <Stack gap="xs">
            {pending.map((r) => {
              const old = existing.get(r.id);
              const state = !old ? 'new' : JSON.stringify(old) === JSON.stringify({ ...old, ...r }) ? 'unchanged' : 'changed';
              return <Text size="sm" key={r.id}><Badge size="xs" variant="dot" color={state === 'new' ? 'green' : state === 'changed' ? 'yellow' : 'gray'}>{state}</Badge> {r.id}{state === 'changed' && old?.pdl !== r.pdl ? ` — PDL: ${old?.pdl} → ${r.pdl}` : ''}</Text>;
            })}
            <Group><Button size="xs" onClick={() => void apply()}>Apply {pending.length} rules</Button><Button size="xs" variant="default" onClick={() => setPending(undefined)}>Cancel</Button></Group>
          </Stack>
        </Alert>
      )}
      <TextInput label="Search rules" placeholder="id, name, PDL or technique" value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
      <Table striped highlightOnHover>
        <Table.Thead><Table.Tr><Table.Th>Enabled</Table.Th><Table.Th>Id</Table.Th><Table.Th>Name</Table.Th><Table.Th>ATT&CK</Table.Th><Table.Th>PDL</Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {shown.slice(0, 500).map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td><Switch aria-label={`Rule ${r.id} enabled`} checked={r.enabled} disabled={!isAdmin} onChange={(e) => void toggle(r, e.currentTarget.checked)} /></Table.Td>
              <Table.Td><a href={`/rules/${encodeURIComponent(r.id)}`} onClick={(e) => { e.preventDefault(); navigate(`/rules/${encodeURIComponent(r.id)}`); }}>{r.id}</a></Table.Td>
              <Table.Td>{r.name}</Table.Td>
              <Table.Td>
                <Group gap={4}>{(r.annotations ?? []).map((a) => (
                  <Tooltip key={a} label={techniqueName(a) ?? 'not in the shipped ATT&CK table'}><Badge variant="outline" size="sm">{a}{techniqueName(a) ? ` ${techniqueName(a)}` : ''}</Badge></Tooltip>
                ))}</Group>
              </Table.Td>
              <Table.Td><Text size="sm" ff="monospace" lineClamp={1}>{r.pdl}</Text></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" data-testid="rule-count">{shown.length} of {rules.data?.length ?? 0} rules{shown.length > 500 ? ' (first 500 shown: refine the search)' : ''}</Text>
    </Stack>
  );
}
