import { Badge, Button, Card, FileButton, Group, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { api } from '../lib/api.ts';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { ReadOnlyNotice } from '../components/ResourcePage.tsx';
import { TableHead } from '../components/TableHead.tsx';
import {
  bundleKinds,
  exportBundle,
  importBundle,
  readBundle,
  type ConfigBundle,
  type ImportStep,
} from '../lib/config-bundle.ts';
import { download } from '../lib/download.ts';
import { errorText } from '../lib/errors.ts';
import { useSession } from '../lib/session.tsx';

/** Export the node's whole configuration to one file; import such a file (into this or a fresh node). */
export default function ConfigurationPage() {
  const { isAdmin } = useSession();
  const [pending, setPending] = useState<{ name: string; bundle: ConfigBundle }>();
  const [readError, setReadError] = useState<string>();
  const [steps, setSteps] = useState<ImportStep[]>();
  const [busy, setBusy] = useState(false);
  const doExport = async () => {
    try {
      const bundle = await exportBundle(api);
      download(
        `weir-configuration-${bundle.exportedAt.slice(0, 19).replaceAll(':', '-')}.json`,
        JSON.stringify(bundle, null, 2),
      );
    } catch (err) {
      notifications.show({ color: 'red', title: 'Export failed', message: errorText(err) });
    }
  };
  const pick = async (file: File | null) => {
    if (!file) return;
    setSteps(undefined);
    try {
      setPending({ name: file.name, bundle: readBundle(await file.text()) });
      setReadError(undefined);
    } catch (err) {
      setPending(undefined);
      setReadError(`${file.name}: ${(err as Error).message}`);
    }
  };
  const apply = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      const result = await importBundle(api, pending.bundle, errorText);
      setSteps(result);
      if (result.every((s) => !s.error)) {
        notifications.show({ color: 'green', message: `Configuration imported from ${pending.name}` });
        setPending(undefined);
      }
    } catch (err) {
      setReadError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack>
      <Title order={1}>Configuration</Title>
      <Text size="sm">
        One JSON file holds every lookup, rule, task, pipeline and topology of this node (users and topics are not part
        of it).
      </Text>
      {!isAdmin && (
        <ReadOnlyNotice>Your role (user) can export the configuration, not import one; an admin can.</ReadOnlyNotice>
      )}
      <Card withBorder>
        <Stack>
          <Title order={2} size="h4">
            Export
          </Title>
          <Group>
            <Button variant="default" onClick={() => void doExport()}>
              Export configuration
            </Button>
          </Group>
        </Stack>
      </Card>
      {isAdmin && (
        <Card withBorder>
          <Stack>
            <Title order={2} size="h4">
              Import
            </Title>
            <Text size="sm">
              Lookups are created or replaced, then rules, tasks, pipelines and topologies are created or updated by id,
              one kind at a time (each kind all or nothing). Records not in the file are kept.
            </Text>
            <Group>
              <FileButton onChange={(f) => void pick(f)} accept=".json,application/json">
                {(props) => (
                  <Button variant="default" {...props}>
                    Choose an exported file
                  </Button>
                )}
              </FileButton>
            </Group>
            <ErrorAlert error={readError} title="This file cannot be imported" />
            {pending && (
              <Stack gap="xs" data-testid="import-summary">
                <Text size="sm">
                  {pending.name}, exported {pending.bundle.exportedAt}:
                </Text>
                <Table withTableBorder aria-label="Records in the file">
                  <TableHead headers={['Kind', 'Records', 'Ids']} />
                  <Table.Tbody>
                    {bundleKinds.map((k) => (
                      <Table.Tr key={k}>
                        <Table.Td>{k}</Table.Td>
                        <Table.Td>{pending.bundle[k].length}</Table.Td>
                        <Table.Td>
                          {(pending.bundle[k] as { id: string | number }[]).map((r) => String(r.id)).join(', ')}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
                <Group>
                  <Button loading={busy} onClick={() => void apply()}>
                    Import configuration
                  </Button>
                  <Button variant="default" onClick={() => setPending(undefined)}>
                    Cancel
                  </Button>
                </Group>
              </Stack>
            )}
            {steps && (
              <Stack gap={4} data-testid="import-steps">
                {steps.map((s) => (
                  <Text key={s.kind} size="sm" role={s.error ? 'alert' : undefined}>
                    <Badge variant="dot" color={s.error ? 'red' : 'green'} mr="xs">
                      {s.error ? 'refused' : 'imported'}
                    </Badge>
                    {s.kind}: {s.error ?? `${s.count} imported`}
                  </Text>
                ))}
              </Stack>
            )}
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
