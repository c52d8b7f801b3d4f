import {
  ActionIcon,
  Badge,
  Button,
  Code,
  Group,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  matcherText,
  parseMatcherText,
  silenceOps,
  silenceStates,
  type Silence,
  type SilenceMatcher,
  type SilenceOp,
  type SilenceState,
} from '@weir/contract';
import { useMemo, useState } from 'react';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { api } from '../lib/api.ts';
import { errorText } from '../lib/errors.ts';
import { isoTimeExample } from '../lib/iso-time.ts';
import { useRouter } from '../lib/router.tsx';
import { usePoll } from '../lib/usePoll.ts';
import { silenceDraft, silenceRequest, type SilenceDraft } from './silence-form.ts';

const stateColor: Record<SilenceState, string> = { active: 'green', pending: 'blue', expired: 'gray' };
const opLabels: Record<SilenceOp, string> = {
  '=': '= equals',
  '!=': '!= does not equal',
  '=~': '=~ matches the regex',
  '!~': '!~ does not match the regex',
};

/**
 * `/silences` (docs/ui.md, "Silences"): every silence, expired ones included, filtered by state;
 * create, edit and expire (every signed-in user, as the API allows). `/silences/new?match=…` opens
 * the form with those matchers (`field=value`, as weirctl's `--match`): the alert's "silence similar".
 */
export default function SilencesPage() {
  const { path, search, navigate } = useRouter();
  const params = new URLSearchParams(search);
  const state = params.get('state') as SilenceState | null;
  const silences = usePoll(() => api.silences(), 0);
  const [editing, setEditing] = useState<Silence>();
  const creating = path === '/silences/new';
  const [expiring, setExpiring] = useState<string>();
  const shown = useMemo(
    () => (silences.data ?? []).filter((s) => state === null || s.state === state).reverse(),
    [silences.data, state],
  );
  const expire = async (s: Silence) => {
    setExpiring(s.id);
    try {
      await api.expireSilence(s.id);
      notifications.show({ color: 'green', message: `Silence ${s.id} expired` });
      silences.reload();
    } catch (err) {
      notifications.show({ color: 'red', message: errorText(err) });
    } finally {
      setExpiring(undefined);
    }
  };
  const close = () => {
    setEditing(undefined);
    if (creating) navigate('/silences');
  };
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Silences</Title>
        <Button onClick={() => navigate('/silences/new')}>New silence</Button>
      </Group>
      <Text size="sm">
        A silenced alert is still stored and shown, marked silenced; it is not notified. Expired silences stay here.
      </Text>
      <SegmentedControl
        aria-label="State"
        value={state ?? 'all'}
        onChange={(v) => navigate(v === 'all' ? '/silences' : `/silences?state=${v}`)}
        data={[{ value: 'all', label: 'all' }, ...silenceStates.map((s) => ({ value: s, label: s }))]}
      />
      <ErrorAlert error={silences.error} />
      <Table striped aria-label="Silences">
        <TableHead headers={['State', 'Matchers', 'Starts', 'Ends', 'Created by', 'Comment', 'Actions']} />
        <Table.Tbody>
          {shown.map((s) => (
            <Table.Tr key={s.id} data-testid="silence-row">
              {/* the cell keeps the badge's width: a narrow column cut `pending` to `PENDI…`; a dot badge
                  as the alert statuses', as the light variant's green text on green (3.8:1) fails WCAG AA */}
              <Table.Td style={{ whiteSpace: 'nowrap', minWidth: 110 }}>
                <Badge color={stateColor[s.state]} variant="dot" style={{ overflow: 'visible', textTransform: 'none' }}>
                  {s.state}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Stack gap={2}>
                  {s.matchers.map((m, i) => (
                    <Code key={i}>{matcherText(m)}</Code>
                  ))}
                </Stack>
              </Table.Td>
              <Table.Td>{s.startsAt}</Table.Td>
              <Table.Td>{s.endsAt}</Table.Td>
              <Table.Td>{s.createdBy}</Table.Td>
              <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{s.comment}</Table.Td>
              <Table.Td>
                {s.state !== 'expired' && (
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="compact-xs"
                      variant="outline"
                      aria-label={`Edit silence ${s.id}`}
                      onClick={() => setEditing(s)}
                    >
                      Edit
                    </Button>
                    <Button
                      size="compact-xs"
                      variant="outline"
                      loading={expiring === s.id}
                      aria-label={`Expire silence ${s.id}`}
                      onClick={() => void expire(s)}
                    >
                      Expire
                    </Button>
                  </Group>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" data-testid="silence-count">
        {shown.length} of {silences.data?.length ?? 0} silences
      </Text>
      {(creating || editing) && (
        <SilenceForm
          key={editing?.id ?? 'new'}
          silence={editing}
          initial={silenceDraft(editing, params.getAll('match').map(parseMatcherText).filter(isMatcher), Date.now())}
          onClose={close}
          onSaved={(saved) => {
            notifications.show({ color: 'green', message: `Silence ${saved.id} saved` });
            silences.reload();
            close();
          }}
        />
      )}
    </Stack>
  );
}

const isMatcher = (m: SilenceMatcher | undefined): m is SilenceMatcher => m !== undefined;

function SilenceForm({
  silence,
  initial,
  onClose,
  onSaved,
}: {
  silence: Silence | undefined;
  initial: SilenceDraft;
  onClose: () => void;
  onSaved: (s: Silence) => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [error, setError] = useState<string>();
  const setMatcher = (i: number, change: Partial<SilenceMatcher>) =>
    setDraft({ ...draft, matchers: draft.matchers.map((m, j) => (i === j ? { ...m, ...change } : m)) });
  const save = async () => {
    setError(undefined);
    try {
      const request = silenceRequest(draft);
      onSaved(silence ? await api.updateSilence(silence.id, request) : await api.createSilence(request));
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <Modal opened onClose={onClose} title={silence ? `Silence ${silence.id}` : 'New silence'} size="lg">
      <Stack>
        <Text size="sm" fw={500} id="matchers-label">
          Matchers: an alert is silenced when every one holds (a field is a path into the alert: _rule.id,
          _alert.severity, user, host.name)
        </Text>
        {draft.matchers.map((m, i) => (
          <Group key={i} align="end" wrap="nowrap" data-testid="matcher-row">
            <TextInput
              label={`Field ${i + 1}`}
              value={m.field}
              onChange={(e) => setMatcher(i, { field: e.currentTarget.value })}
            />
            <Select
              label={`Operator ${i + 1}`}
              allowDeselect={false}
              data={silenceOps.map((op) => ({ value: op, label: opLabels[op] }))}
              value={m.op}
              onChange={(v) => v && setMatcher(i, { op: v as SilenceOp })}
            />
            <TextInput
              label={`Value ${i + 1}`}
              value={m.value}
              onChange={(e) => setMatcher(i, { value: e.currentTarget.value })}
            />
            <ActionIcon
              variant="subtle"
              aria-label={`Remove matcher ${i + 1}`}
              disabled={draft.matchers.length === 1}
              onClick={() => setDraft({ ...draft, matchers: draft.matchers.filter((_, j) => j !== i) })}
            >
              ✕
            </ActionIcon>
          </Group>
        ))}
        <Group>
          <Button
            variant="default"
            size="xs"
            onClick={() => setDraft({ ...draft, matchers: [...draft.matchers, { field: '', op: '=', value: '' }] })}
          >
            Add matcher
          </Button>
        </Group>
        <Group grow>
          <TextInput
            label="Starts"
            description={`ISO 8601, e.g. ${isoTimeExample}`}
            value={draft.startsAt}
            onChange={(e) => setDraft({ ...draft, startsAt: e.currentTarget.value })}
          />
          <TextInput
            label="Ends"
            description="ISO 8601, or a duration from the start: 30m, 2h, 1d"
            value={draft.endsAt}
            onChange={(e) => setDraft({ ...draft, endsAt: e.currentTarget.value })}
          />
        </Group>
        <Textarea
          label="Comment"
          description="Why: the change, the maintenance window, the ticket"
          autosize
          minRows={2}
          value={draft.comment}
          onChange={(e) => setDraft({ ...draft, comment: e.currentTarget.value })}
        />
        <ErrorAlert error={error} />
        <Group>
          <Button onClick={() => void save()}>Save silence</Button>
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
