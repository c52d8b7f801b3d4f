import '@mantine/dropzone/styles.css';
import { Button, FileButton, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { notifications } from '@mantine/notifications';
import { lookupKind, type Lookup } from '@weir/contract';
import { useState } from 'react';
import { api } from '../lib/api.ts';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { ResourcePage, useResourcePage, type ResourceCalls } from '../components/ResourcePage.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { download } from '../lib/download.ts';
import { errorText } from '../lib/errors.ts';
import { columnsOf, previewLookup, type Row } from '../lib/lookup-preview.ts';
import { countOf } from '../lib/kind-labels.ts';

const previewRows = 200;

const lookupCalls: ResourceCalls<Lookup> = { list: () => api.lookups(), delete: (id) => api.deleteLookup(id) };

/** A file read and previewed, waiting to be saved as a new lookup or to replace one. */
interface Pending {
  file: File;
  rows: Row[];
  id: string;
  replace: boolean;
}

/** Lookups: list; upload CSV/JSON (drop or pick), preview as a table before saving; replace, download, delete. */
export default function LookupsPage() {
  // `/lookups/{id}` (the palette's link) opens that lookup as its View button does; closing goes back to `/lookups`.
  const page = useResourcePage(lookupKind, lookupCalls);
  const { isAdmin } = page;
  const [pending, setPending] = useState<Pending>();
  const [readError, setReadError] = useState<string>();
  const [saveError, setSaveError] = useState<string>();
  const existing = new Set((page.records.data ?? []).map((l) => l.id));
  const read = async (file: File | undefined | null, replaceId?: string) => {
    if (!file) return;
    setSaveError(undefined);
    try {
      const rows = previewLookup(await file.text(), file.name);
      setReadError(undefined);
      setPending({
        file,
        rows,
        id: replaceId ?? file.name.replace(/\.(csv|json)$/i, ''),
        replace: replaceId !== undefined,
      });
    } catch (err) {
      setPending(undefined);
      setReadError(`${file.name}: ${(err as Error).message}`);
    }
  };
  const save = async () => {
    if (!pending) return;
    try {
      if (pending.replace) await api.replaceLookup(pending.id, pending.file, pending.file.name);
      else await api.createLookup(pending.id, pending.file, pending.file.name);
      notifications.show({
        color: 'green',
        message: `Lookup ${pending.id} ${pending.replace ? 'replaced' : 'saved'} (${countOf(pending.rows.length, 'row')})`,
      });
      setPending(undefined);
      setSaveError(undefined);
      page.records.reload();
    } catch (err) {
      setSaveError(errorText(err));
    }
  };
  return (
    <ResourcePage
      page={page}
      above={
        <>
          {isAdmin && (
            <Stack gap="xs">
              <Dropzone
                onDrop={(files) => void read(files[0])}
                multiple={false}
                maxFiles={1}
                aria-label="Drop a CSV or JSON lookup file here"
                data-testid="lookup-dropzone"
                onReject={(r) =>
                  setReadError(r.map((x) => `${x.file.name}: ${x.errors.map((e) => e.message).join(', ')}`).join('; '))
                }
              >
                <Stack align="center" gap={4} py="md" style={{ pointerEvents: 'none' }}>
                  <Text fw={500}>Drop a CSV or JSON file here</Text>
                  <Text size="sm">
                    CSV: the first line gives the field names. JSON: an array of objects. You see a preview before
                    anything is saved.
                  </Text>
                </Stack>
              </Dropzone>
              <Group>
                <FileButton onChange={(f) => void read(f)} accept=".csv,.json,text/csv,application/json">
                  {(props) => (
                    <Button variant="default" {...props}>
                      Choose a file
                    </Button>
                  )}
                </FileButton>
              </Group>
            </Stack>
          )}
          <ErrorAlert error={readError} title="This file is not a lookup table" />
          {pending && (
            <Stack gap="xs" data-testid="lookup-preview">
              <Title order={2} size="h4">
                Preview of {pending.file.name}: {countOf(pending.rows.length, 'row')},{' '}
                {countOf(columnsOf(pending.rows).length, 'column')}
              </Title>
              <Group align="end">
                <TextInput
                  label="Lookup id"
                  required
                  readOnly={pending.replace}
                  value={pending.id}
                  onChange={(e) => setPending({ ...pending, id: e.currentTarget.value })}
                  error={
                    !pending.replace && existing.has(pending.id)
                      ? 'A lookup with this id exists: use its Replace button to replace it'
                      : undefined
                  }
                />
                <Button
                  onClick={() => void save()}
                  disabled={!pending.id || (!pending.replace && existing.has(pending.id))}
                >
                  {pending.replace ? `Replace ${pending.id}` : 'Save lookup'}
                </Button>
                <Button variant="default" onClick={() => setPending(undefined)}>
                  Cancel
                </Button>
              </Group>
              <ErrorAlert error={saveError} title="The engine refused the file" />
              <RowsTable rows={pending.rows} label={`Preview of ${pending.file.name}`} />
            </Stack>
          )}
        </>
      }
      columns={[
        { header: 'Rows', cell: (l) => l.content.length },
        { header: 'Columns', cell: (l) => columnsOf(l.content).join(', ') },
      ]}
      trailingRowActions={(l) => (
        <>
          <Button
            size="compact-xs"
            variant="outline"
            onClick={() => download(`${l.id}.json`, JSON.stringify(l.content, null, 2))}
            aria-label={`Download lookup ${l.id}`}
          >
            Download
          </Button>
          {isAdmin && (
            <FileButton onChange={(f) => void read(f, l.id)} accept=".csv,.json,text/csv,application/json">
              {(props) => (
                <Button size="compact-xs" variant="outline" {...props} aria-label={`Replace lookup ${l.id}`}>
                  Replace
                </Button>
              )}
            </FileButton>
          )}
        </>
      )}
      editor={(open) => <RowsTable rows={open.record.content} label={`Lookup ${open.record.id}`} />}
    />
  );
}

function cellText(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v);
}

/** The rows as a table (the first rows only; the count says how many there are). */
function RowsTable({ rows, label }: { rows: readonly Row[]; label: string }) {
  const columns = columnsOf(rows);
  return (
    <Stack gap={4}>
      <Table.ScrollContainer minWidth={400} maxHeight={420}>
        <Table striped withTableBorder aria-label={label}>
          <TableHead headers={columns} />
          <Table.Tbody>
            {rows.slice(0, previewRows).map((r, i) => (
              <Table.Tr key={i}>
                {columns.map((c) => (
                  <Table.Td key={c} ff={typeof r[c] === 'number' ? 'monospace' : undefined}>
                    {cellText(r[c])}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows.length > previewRows && (
        <Text size="sm">
          Showing the first {previewRows} of {rows.length} rows.
        </Text>
      )}
    </Stack>
  );
}
