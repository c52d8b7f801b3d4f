import {
  Button,
  Group,
  Modal,
  NumberInput,
  PasswordInput,
  Select,
  Stack,
  Switch,
  Table,
  TagsInput,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { severities, type Notifier, type Severity } from '@weir/contract';
import { useState } from 'react';
import { ConfirmDelete } from '../components/ConfirmDelete.tsx';
import { DeleteButton } from '../components/DeleteButton.tsx';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { api } from '../lib/api.ts';
import { errorText } from '../lib/errors.ts';
import { useSession } from '../lib/session.tsx';
import { usePoll } from '../lib/usePoll.ts';
import { matcherSummary, notifierDraft, notifierRequest, type NotifierDraft } from './notifier-form.ts';

/**
 * `/notifiers` (admin; docs/ui.md, "Notifiers"): the signed webhooks alerts are sent to — list,
 * create, edit (the secret is write-only: left empty, the stored one is kept), enable, delete.
 */
export default function NotifiersPage() {
  const { isAdmin } = useSession();
  if (!isAdmin)
    return (
      <Stack>
        <Title order={1}>Notifiers</Title>
        <Text>Only an admin manages notifiers: their addresses say where alerts leave the system.</Text>
      </Stack>
    );
  return <NotifiersTable />;
}

function NotifiersTable() {
  const list = usePoll(() => api.notifiers(), 0);
  const [editing, setEditing] = useState<Notifier | 'new'>();
  const [deleting, setDeleting] = useState<Notifier>();
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Notifiers</Title>
        <Button onClick={() => setEditing('new')}>New notifier</Button>
      </Group>
      <Text size="sm">
        Each alert its matcher holds for is sent to the notifier's HTTPS address, signed (X-Weir-Signature), retried
        while the receiver is down, never dropped; silenced alerts are not sent.
      </Text>
      <ErrorAlert error={list.error} />
      <Table striped aria-label="Notifiers">
        <TableHead headers={['Id', 'Name', 'Address', 'Alerts sent', 'Per minute', 'Enabled', 'Actions']} />
        <Table.Tbody>
          {(list.data ?? []).map((n) => (
            <Table.Tr key={n.id} data-testid="notifier-row">
              <Table.Td>{n.id}</Table.Td>
              <Table.Td>{n.name}</Table.Td>
              <Table.Td style={{ wordBreak: 'break-all' }}>{n.url}</Table.Td>
              <Table.Td>{matcherSummary(n.matcher)}</Table.Td>
              <Table.Td>{n.rateLimitPerMinute}</Table.Td>
              <Table.Td>{n.enabled ? 'on' : 'off'}</Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Button
                    size="compact-xs"
                    variant="outline"
                    aria-label={`Edit notifier ${n.id}`}
                    onClick={() => setEditing(n)}
                  >
                    Edit
                  </Button>
                  <DeleteButton what={`notifier ${n.id}`} onClick={() => setDeleting(n)} />
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {editing && (
        <NotifierForm
          key={editing === 'new' ? 'new' : editing.id}
          notifier={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
          onSaved={(n) => {
            notifications.show({ color: 'green', message: `Notifier ${n.id} saved` });
            setEditing(undefined);
            list.reload();
          }}
        />
      )}
      <ConfirmDelete
        what={deleting ? `notifier ${deleting.id}` : undefined}
        message={deleting ? `Alerts will no longer be sent to ${deleting.url}.` : undefined}
        onClose={() => setDeleting(undefined)}
        onConfirm={async () => {
          await api.deleteNotifier(deleting!.id);
          notifications.show({ color: 'green', message: `Notifier ${deleting!.id} deleted` });
          setDeleting(undefined);
          list.reload();
        }}
      />
    </Stack>
  );
}

function NotifierForm({
  notifier,
  onClose,
  onSaved,
}: {
  notifier: Notifier | undefined;
  onClose: () => void;
  onSaved: (n: Notifier) => void;
}) {
  const isNew = notifier === undefined;
  const [draft, setDraft] = useState<NotifierDraft>(() => notifierDraft(notifier));
  const [error, setError] = useState<string>();
  const set = (change: Partial<NotifierDraft>) => setDraft({ ...draft, ...change });
  const save = async () => {
    setError(undefined);
    try {
      const request = notifierRequest(draft, isNew);
      onSaved(
        isNew
          ? await api.createNotifier(request as Parameters<typeof api.createNotifier>[0])
          : await api.updateNotifier(notifier.id, request),
      );
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <Modal opened onClose={onClose} title={isNew ? 'New notifier' : `Notifier ${notifier.id}`} size="lg">
      <Stack>
        {isNew && <TextInput label="Id" value={draft.id} onChange={(e) => set({ id: e.currentTarget.value })} />}
        <TextInput label="Name" value={draft.name} onChange={(e) => set({ name: e.currentTarget.value })} />
        <TextInput
          label="Address"
          description="The receiver's https:// URL"
          value={draft.url}
          onChange={(e) => set({ url: e.currentTarget.value })}
        />
        <PasswordInput
          label="Secret"
          description={
            isNew
              ? 'The HMAC-SHA256 key of X-Weir-Signature, 16 characters or more'
              : 'Set; left empty, the stored secret is kept'
          }
          value={draft.secret}
          onChange={(e) => set({ secret: e.currentTarget.value })}
        />
        <Select
          label="Minimum severity"
          placeholder="any"
          clearable
          data={[...severities].reverse()}
          value={draft.minSeverity}
          onChange={(v) => set({ minSeverity: (v as Severity | null) ?? null })}
        />
        <TagsInput
          label="Rules"
          description="Only these rules' alerts (empty: every rule)"
          value={[...draft.rules]}
          onChange={(rules) => set({ rules })}
        />
        <TagsInput
          label="Techniques"
          description="Only alerts of these ATT&CK techniques or their sub-techniques (T1110 holds for T1110.001)"
          value={[...draft.techniques]}
          onChange={(techniques) => set({ techniques })}
        />
        <Group grow align="end">
          <NumberInput
            label="Per minute at most"
            min={1}
            max={60_000}
            value={draft.rateLimitPerMinute}
            onChange={(v) => set({ rateLimitPerMinute: typeof v === 'number' ? v : Number(v) })}
          />
          <Switch label="Enabled" checked={draft.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
        </Group>
        <Textarea
          label="CA certificate (PEM)"
          description="The CA that signed the receiver's certificate, when it is a private one"
          autosize
          minRows={2}
          value={draft.caCertificate}
          onChange={(e) => set({ caCertificate: e.currentTarget.value })}
        />
        <ErrorAlert error={error} />
        <Group>
          <Button onClick={() => void save()}>Save notifier</Button>
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
