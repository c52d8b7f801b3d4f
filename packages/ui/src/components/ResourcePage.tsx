import { Alert, Button, Group, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import type { KindInfo } from '@weir/contract';
import { Fragment, useState, type ReactNode } from 'react';
import { kindLabels, type KindLabels } from '../lib/kind-labels.ts';
import { useSession } from '../lib/session.tsx';
import { usePoll } from '../lib/usePoll.ts';
import { ConfirmDelete } from './ConfirmDelete.tsx';
import { ErrorAlert } from './ErrorAlert.tsx';
import { NotFoundAlert } from './NotFoundAlert.tsx';
import { RecordDrawer } from './RecordDrawer.tsx';
import { RowActions } from './RowActions.tsx';
import { TableHead } from './TableHead.tsx';
import { useOpenRecord } from './useOpenRecord.ts';
import { VersionHistory, type VersionSource } from './VersionHistory.tsx';

/**
 * What a `user` sees on a page an admin edits: the role may view, not change (a note, not an alert:
 * nothing went wrong).
 */
export function ReadOnlyNotice({ children }: { children: ReactNode }) {
  return (
    <Alert variant="light" color="gray" role="note" title="Read only" data-testid="read-only-notice">
      {children}
    </Alert>
  );
}

/** A record of any kind: its id (the registry's `idField`) and, for most kinds, a name. */
type Stored = { readonly id: string | number; readonly name?: string };

/** What a resource page lists and deletes through (the SDK's `api.tasks`, or the lookups' calls). */
export interface ResourceCalls<T extends Stored> {
  list(): Promise<T[]>;
  delete(id: T['id']): Promise<void>;
}

/**
 * The state of a resource page of `kind` (the kinds registry of @weir/contract): its records, the one
 * open in the drawer (`/{path}/{id}` opens it too), the one being deleted. `saved` reloads the list and
 * keeps the saved record open.
 */
export function useResourcePage<T extends Stored>(kind: KindInfo, calls: ResourceCalls<T>) {
  const { isAdmin } = useSession();
  const labels = kindLabels(kind);
  const records = usePoll(() => calls.list(), 0);
  const [deleting, setDeleting] = useState<T>();
  const opened = useOpenRecord(labels.listPath, records.data, (r) => String(r[kind.idField]));
  return {
    kind,
    labels,
    calls,
    isAdmin,
    records,
    ...opened,
    deleting,
    setDeleting,
    saved: (record: T) => {
      records.reload();
      opened.show(record);
    },
  };
}

export type ResourcePageState<T extends Stored> = ReturnType<typeof useResourcePage<T>>;

/** One column of the table after the id: its header and a record's cell. */
export interface Column<T> {
  header: string;
  cell: (record: T) => ReactNode;
}

/**
 * The page of one resource kind: heading (and `New {kind}` for an admin when `newRecord` is given),
 * the load error and the not-found alert of a `/{path}/{id}` link, `above` (the page's own panels),
 * the table (Id, `columns`, then the row's actions: View or Edit, Delete for an admin, the row's own
 * buttons), `footer` (the count by default), the drawer showing the open record through `editor`
 * (mounted anew for another record, or a new one), and the delete dialog. A kind without a schema
 * (lookups, file uploads) is viewed, never edited. With `versions` (a versioned kind), a stored record's
 * drawer has two tabs: the editor, and its History (read-only: versions and diffs, no rollback).
 */
export function ResourcePage<T extends Stored>({
  page,
  columns,
  newRecord,
  error,
  above,
  footer,
  rowActions,
  trailingRowActions,
  editor,
  versions,
}: {
  page: ResourcePageState<T>;
  columns: readonly Column<T>[];
  /** The record `New {kind}` opens, given the next free id (one more than the highest; integer ids). */
  newRecord?: (nextId: number) => T;
  /** Another load's error (the records' own is shown first). */
  error?: string;
  above?: ReactNode;
  footer?: ReactNode;
  rowActions?: (record: T) => ReactNode;
  trailingRowActions?: (record: T) => ReactNode;
  editor: (open: { record: T; isNew: boolean }, readOnly: boolean) => ReactNode;
  versions?: VersionSource<T, T['id']>;
}) {
  const { labels, records, isAdmin, open, show, close, notFound, closeLink, deleting, setDeleting } = page;
  const list = records.data ?? [];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{labels.title}</Title>
        {isAdmin && newRecord && (
          <Button onClick={() => show(newRecord(nextId(list)), true)}>{labels.newRecord}</Button>
        )}
      </Group>
      {!isAdmin && (
        <ReadOnlyNotice>
          Your role (user) can view {labels.title.toLowerCase()}, not change them; an admin can.
        </ReadOnlyNotice>
      )}
      <ErrorAlert error={records.error ?? error} />
      <NotFoundAlert what={page.kind.names.one} id={notFound} onClose={closeLink} />
      {above}
      <Table striped highlightOnHover>
        <TableHead headers={['Id', ...columns.map((c) => c.header), 'Actions']} />
        <Table.Tbody>
          {list.map((r) => (
            <Table.Tr key={r.id} data-testid={labels.rowTestId}>
              <Table.Td>{r.id}</Table.Td>
              {columns.map((c) => (
                <Table.Td key={c.header}>{c.cell(r)}</Table.Td>
              ))}
              <Table.Td>
                <RowActions
                  what={labels.row(r.id)}
                  isAdmin={isAdmin}
                  editable={page.kind.schema !== undefined}
                  onOpen={() => show(r)}
                  onDelete={() => setDeleting(r)}
                  trailing={trailingRowActions?.(r)}
                >
                  {rowActions?.(r)}
                </RowActions>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {footer ?? <Text size="sm">{labels.count(list.length)}</Text>}
      <RecordDrawer opened={open !== undefined} onClose={close} title={drawerTitle(labels, open)}>
        {open && (
          <Fragment key={`${open.record.id}-${open.isNew}`}>
            {versions && !open.isNew ? (
              <WithHistory what={labels.record(open.record.id)} id={open.record.id} versions={versions}>
                {editor(open, !isAdmin)}
              </WithHistory>
            ) : (
              editor(open, !isAdmin)
            )}
          </Fragment>
        )}
      </RecordDrawer>
      <ConfirmDelete
        what={deleting && labels.deleting(deleting)}
        onClose={() => setDeleting(undefined)}
        onConfirm={async () => {
          await page.calls.delete(deleting!.id);
          setDeleting(undefined);
          records.reload();
        }}
      />
    </Stack>
  );
}

/** A stored record's drawer: its editor, and its History tab (read only), read when the tab opens. */
function WithHistory<T, I>({
  what,
  id,
  versions,
  children,
}: {
  what: string;
  id: I;
  versions: VersionSource<T, I>;
  children: ReactNode;
}) {
  const [tab, setTab] = useState<string | null>('record');
  return (
    <Tabs value={tab} onChange={setTab}>
      <Tabs.List mb="md">
        <Tabs.Tab value="record">Definition</Tabs.Tab>
        <Tabs.Tab value="history">History</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="record">{children}</Tabs.Panel>
      <Tabs.Panel value="history">
        {tab === 'history' && (
          <VersionHistory
            what={what}
            id={id}
            source={versions}
            canRollBack={false}
            revision={0}
            onRolledBack={() => {}}
          />
        )}
      </Tabs.Panel>
    </Tabs>
  );
}

function drawerTitle(labels: KindLabels, open: { record: Stored; isNew: boolean } | undefined): string {
  return open?.isNew ? labels.newRecord : labels.record(open?.record.id ?? '');
}

/** One more than the highest numeric id of `records` (1 for none). */
function nextId(records: readonly Stored[]): number {
  return records.reduce((m, r) => (typeof r.id === 'number' ? Math.max(m, r.id) : m), 0) + 1;
}
