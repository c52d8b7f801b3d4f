import {
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AlertTriageChange, AlertView } from '@weir/client';
import { alertResolutions, alertStatuses, type AlertResolution, type AlertStatus } from '@weir/contract';
import { useEffect, useState, type MouseEvent, type ReactNode } from 'react';
import { alertEntity } from '../lib/alert-entity.ts';
import { api } from '../lib/api.ts';
import { techniqueName } from '../lib/attack.ts';
import { errorText } from '../lib/errors.ts';
import { useRouter } from '../lib/router.tsx';
import { useSession } from '../lib/session.tsx';
import { alertStatusColor, severityColor } from '../lib/severity-colors.ts';
import { usePoll } from '../lib/usePoll.ts';
import { silenceSimilarUrl, sourceUrl } from '../lib/alert-links.ts';
import { ErrorAlert } from './ErrorAlert.tsx';
import { JsonTree } from './JsonTree.tsx';
import { RecordDrawer } from './RecordDrawer.tsx';

const time = (ms: number) => new Date(ms).toISOString();

/** A link inside the console: the router's navigation, still a real `href` (open in a new tab works). */
export function ConsoleLink({ to, children, label }: { to: string; children: ReactNode; label?: string }) {
  const { navigate } = useRouter();
  return (
    <Anchor
      href={to}
      aria-label={label}
      onClick={(e: MouseEvent) => {
        e.preventDefault();
        e.stopPropagation();
        navigate(to);
      }}
    >
      {children}
    </Anchor>
  );
}

interface Suppression {
  count: number;
  firstSeen: number;
  lastSeen: number;
  fields: Record<string, unknown>;
  window: { start: number; end: number };
}

/**
 * One alert (`/alerts/{id}`, docs/ui.md "Alerts"): its facts with links to the rule, the source
 * record in the message browser and the silences; the suppression and correlation details; the
 * triage (status, resolution, assignee, a note) saved with `PATCH /api/alerts/{id}`, every signed-in
 * user may; the notes with who and when; "Silence similar"; the record as a JSON tree.
 */
export function AlertDrawer({
  id,
  onClose,
  onChanged,
}: {
  id: string;
  onClose: () => void;
  onChanged: (a: AlertView) => void;
}) {
  const alert = usePoll(() => api.alert(id), 0, [id]);
  const a = alert.data?.id === id ? alert.data : undefined;
  return (
    <RecordDrawer opened onClose={onClose} title={a ? `Alert: ${a.rule.name ?? a.rule.id ?? a.id}` : 'Alert'}>
      <ErrorAlert error={alert.error} />
      {a && (
        <AlertDetail
          alert={a}
          onChanged={(changed) => {
            onChanged(changed);
            alert.reload();
          }}
        />
      )}
    </RecordDrawer>
  );
}

function AlertDetail({ alert: a, onChanged }: { alert: AlertView; onChanged: (a: AlertView) => void }) {
  const record = a.record as Record<string, unknown>;
  const entity = alertEntity(record);
  const source = sourceUrl(a.source);
  const src = a.source as { topic: string; partition: number; offset: number } | null;
  const suppression = (record._alert as { suppression?: Suppression } | undefined)?.suppression;
  const aggregation = record._aggregation;
  const silenced = a.silencedBy ?? [];
  return (
    <Stack>
      <Table variant="vertical" withTableBorder aria-label="Alert facts">
        <Table.Tbody>
          <Fact name="Time">{time(a.time)}</Fact>
          <Fact name="Severity">
            <Badge color={severityColor[a.severity]} variant="dot" style={{ textTransform: 'none' }}>
              {a.severity}
            </Badge>
          </Fact>
          <Fact name="Rule">
            {a.rule.id === null ? (
              '—'
            ) : (
              <ConsoleLink to={`/rules/${encodeURIComponent(a.rule.id)}`}>
                {a.rule.id}
                {a.rule.name && a.rule.name !== a.rule.id ? ` (${a.rule.name})` : ''}
              </ConsoleLink>
            )}
          </Fact>
          <Fact name="Techniques">
            <Group gap={4}>
              {a.techniques.map((t) => (
                <Badge key={t} variant="outline">
                  {t} {techniqueName(t) ?? ''}
                </Badge>
              ))}
            </Group>
          </Fact>
          <Fact name="Entity">{entity.map((e) => `${e.path}=${e.value}`).join(' ') || '—'}</Fact>
          <Fact name="Source record">
            {source && src ? (
              <ConsoleLink to={source} label="Open the source record in Messages">
                {src.topic} partition {src.partition} offset {src.offset}
              </ConsoleLink>
            ) : (
              'none (emitted by a correlation window that closed)'
            )}
          </Fact>
          <Fact name="Silenced">
            {silenced.length === 0 ? (
              'no'
            ) : (
              <Group gap={4}>
                by{' '}
                {silenced.map((s) => (
                  <ConsoleLink key={s} to="/silences">
                    <Code>{s}</Code>
                  </ConsoleLink>
                ))}
              </Group>
            )}
          </Fact>
          <Fact name="Id">
            <Code>{a.id}</Code>
          </Fact>
        </Table.Tbody>
      </Table>
      <Group>
        <ConsoleLink to={silenceSimilarUrl(a, entity)}>Silence similar…</ConsoleLink>
      </Group>
      {suppression && (
        <Stack gap={4} data-testid="alert-suppression">
          <Title order={3} size="h5">
            Suppression
          </Title>
          <Text size="sm">
            {suppression.count === 0
              ? 'The first alert of its window; any others are counted on it when the window closes.'
              : `This alert and ${suppression.count} more in its window (${suppression.count} suppressed).`}{' '}
            First seen {time(suppression.firstSeen)}, last seen {time(suppression.lastSeen)}; window{' '}
            {time(suppression.window.start)} to {time(suppression.window.end)}; on{' '}
            {Object.entries(suppression.fields)
              .map(([k, v]) => `${k}=${v === null ? '(missing)' : String(v)}`)
              .join(', ')}
            .
          </Text>
        </Stack>
      )}
      {aggregation !== undefined && (
        <Stack gap={4}>
          <Title order={3} size="h5">
            Correlation
          </Title>
          <JsonTree value={aggregation} label="Correlation details" />
        </Stack>
      )}
      <TriageForm alert={a} onChanged={onChanged} />
      <TriageHistory alert={a} />
      <Title order={3} size="h5">
        Record
      </Title>
      <JsonTree value={record} label="Alert record" />
    </Stack>
  );
}

function Fact({ name, children }: { name: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={140}>{name}</Table.Th>
      <Table.Td>{children}</Table.Td>
    </Table.Tr>
  );
}

/** Status, resolution (asked when closing), assignee and a note; only what changed is sent. */
function TriageForm({ alert: a, onChanged }: { alert: AlertView; onChanged: (a: AlertView) => void }) {
  const { user } = useSession();
  const [status, setStatus] = useState<AlertStatus>(a.status);
  const [resolution, setResolution] = useState<AlertResolution | null>(a.resolution);
  const [assignee, setAssignee] = useState(a.assignee ?? '');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setStatus(a.status);
    setResolution(a.resolution);
    setAssignee(a.assignee ?? '');
  }, [a.updatedAt]);
  const change: AlertTriageChange = {
    ...(status !== a.status ? { status } : {}),
    ...(status === 'closed' && resolution !== null && resolution !== a.resolution ? { resolution } : {}),
    ...(assignee.trim() !== (a.assignee ?? '') ? { assignee: assignee.trim() === '' ? null : assignee.trim() } : {}),
    ...(note.trim() ? { note: note.trim() } : {}),
  };
  const save = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const saved = await api.triageAlert(a.id, change);
      setNote('');
      notifications.show({ color: 'green', message: `Alert ${a.id} saved` });
      onChanged(saved);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs" data-testid="alert-triage">
      <Title order={3} size="h5">
        Triage
      </Title>
      <Group align="end" grow>
        <Select
          label="Status"
          description="new, acknowledged or closed"
          allowDeselect={false}
          data={[...alertStatuses]}
          value={status}
          onChange={(v) => v && setStatus(v as AlertStatus)}
        />
        <Select
          label="Resolution"
          description={status === 'closed' ? 'required to close' : 'only when closed'}
          disabled={status !== 'closed'}
          data={alertResolutions.map((r) => ({ value: r, label: r.replace('_', ' ') }))}
          value={status === 'closed' ? resolution : null}
          onChange={(v) => setResolution(v as AlertResolution | null)}
        />
      </Group>
      <Group align="end">
        <TextInput
          label="Assignee"
          description="empty: unassigned"
          value={assignee}
          onChange={(e) => setAssignee(e.currentTarget.value)}
        />
        {user && (
          <Button variant="default" onClick={() => setAssignee(user.username)}>
            Assign to me
          </Button>
        )}
      </Group>
      <Textarea label="Note" autosize minRows={2} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
      <ErrorAlert error={error} />
      <Group>
        <Button
          loading={busy}
          disabled={Object.keys(change).length === 0 || (status === 'closed' && resolution === null)}
          onClick={() => void save()}
        >
          Save triage
        </Button>
        <Badge color={alertStatusColor[a.status]} variant="dot" style={{ textTransform: 'none' }}>
          {a.status}
          {a.resolution ? `: ${a.resolution}` : ''}
        </Badge>
      </Group>
    </Stack>
  );
}

function TriageHistory({ alert: a }: { alert: AlertView }) {
  return (
    <Stack gap={4} data-testid="alert-history">
      <Title order={3} size="h5">
        Notes
      </Title>
      {a.notes.length === 0 && <Text size="sm">No notes yet.</Text>}
      {a.notes.map((n, i) => (
        <Stack key={i} gap={0} data-testid="alert-note">
          <Text size="xs" c="dimmed">
            {n.user ?? 'unknown'} at {time(n.time)}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {n.text}
          </Text>
        </Stack>
      ))}
      <Text size="xs" c="dimmed">
        {a.updatedBy ? `Last change by ${a.updatedBy} at ${time(a.updatedAt)}` : 'Not triaged yet'}
      </Text>
    </Stack>
  );
}
