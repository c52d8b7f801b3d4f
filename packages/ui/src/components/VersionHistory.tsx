import {
  Button,
  Checkbox,
  Code,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { VersionDiff, VersionSummary } from '@weir/contract';
import { useEffect, useState } from 'react';
import { usePoll } from '../lib/usePoll.ts';
import { actionText, sideBySide, togglePick, valueText, type DiffRow, type DiffSide } from '../lib/version-diff.ts';
import { useActionError } from './dialog.ts';
import { ErrorAlert } from './ErrorAlert.tsx';

/** The SDK's version calls of one kind (`api.rules`, `api.tasks`, …); `I` is the kind's id type. */
export interface VersionSource<T, I = string> {
  versions(id: I): Promise<VersionSummary[]>;
  diff(id: I, from: number, to: number): Promise<VersionDiff>;
  rollback(id: I, version: number, note?: string): Promise<T>;
}

/**
 * A record's history (docs/detection-as-code.md, "Versions"): its versions newest first (version,
 * time, who, what, note); two picked (by default the newest two) compared side by side — the PDL line
 * by line, the other fields as path / before / after; an admin rolls back to a version after a
 * confirmation with an optional change note. `revision` changes after each save, to read the list again.
 */
export function VersionHistory<T, I = string>({
  what,
  id,
  source,
  canRollBack,
  revision,
  onRolledBack,
}: {
  what: string;
  id: I;
  source: VersionSource<T, I>;
  canRollBack: boolean;
  revision: number;
  onRolledBack: (record: T) => void;
}) {
  const list = usePoll(() => source.versions(id), 0, [id, revision]);
  const [picked, setPicked] = useState<number[]>([]);
  const [rollTo, setRollTo] = useState<number>();
  const versions = list.data ?? [];
  const latest = versions.at(-1)?.version;
  // Each new list starts by comparing its newest two versions.
  useEffect(() => {
    const v = list.data?.map((x) => x.version) ?? [];
    setPicked(v.slice(-2));
  }, [list.data]);

  return (
    <Stack>
      <ErrorAlert error={list.error} />
      {list.data && (
        <Text size="sm" data-testid="version-count">
          {versions.length === 0
            ? `${what} has no versions yet: it was stored before versions existed; its next change makes one.`
            : `${versions.length} version${versions.length === 1 ? '' : 's'}, newest first. Tick two to compare them.`}
        </Text>
      )}
      {versions.length > 0 && (
        <Table striped aria-label="Versions" data-testid="versions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Compare</Table.Th>
              <Table.Th>Version</Table.Th>
              <Table.Th>Time</Table.Th>
              <Table.Th>Who</Table.Th>
              <Table.Th>Action</Table.Th>
              <Table.Th>Note</Table.Th>
              {canRollBack && <Table.Th>Roll back</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {[...versions].reverse().map((v) => (
              <Table.Tr key={v.version} data-testid="version-row">
                <Table.Td>
                  <Checkbox
                    aria-label={`Compare version ${v.version}`}
                    checked={picked.includes(v.version)}
                    onChange={() => setPicked((p) => togglePick(p, v.version))}
                  />
                </Table.Td>
                <Table.Td>{v.version}</Table.Td>
                <Table.Td>{v.time}</Table.Td>
                <Table.Td>{v.user ?? '—'}</Table.Td>
                <Table.Td>{actionText(v)}</Table.Td>
                <Table.Td>{v.note ?? ''}</Table.Td>
                {canRollBack && (
                  <Table.Td>
                    {v.version !== latest && v.action !== 'delete' && (
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`Roll back to version ${v.version}`}
                        onClick={() => setRollTo(v.version)}
                      >
                        Roll back
                      </Button>
                    )}
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {picked.length === 2 && <VersionCompare id={id} source={source} from={picked[0]!} to={picked[1]!} />}
      <RollbackDialog
        what={what}
        version={rollTo}
        onClose={() => setRollTo(undefined)}
        onConfirm={async (note) => {
          const record = await source.rollback(id, rollTo!, note);
          notifications.show({ color: 'green', message: `${what} rolled back to version ${rollTo}` });
          setRollTo(undefined);
          onRolledBack(record);
          list.reload();
        }}
      />
    </Stack>
  );
}

/** The diff of two versions: the PDL side by side, the other fields as path / before / after. */
function VersionCompare<T, I>({
  id,
  source,
  from,
  to,
}: {
  id: I;
  source: VersionSource<T, I>;
  from: number;
  to: number;
}) {
  const diff = usePoll(() => source.diff(id, from, to), 0, [id, from, to]);
  const d = diff.data?.from === from && diff.data.to === to ? diff.data : undefined;
  const fields = d ? (d.pdl ? d.changes.filter((c) => c.path !== 'pdl') : d.changes) : [];
  const pdlChanged = d?.pdl?.some((l) => l.op !== ' ') ?? false;
  return (
    <Stack data-testid="version-diff">
      <Title order={2} size="h4">
        Version {from} → version {to}
      </Title>
      <ErrorAlert error={diff.error} />
      {d && d.changes.length === 0 && <Text size="sm">The two versions are the same.</Text>}
      {d?.pdl && pdlChanged && <PdlDiff rows={sideBySide(d.pdl)} from={from} to={to} />}
      {fields.length > 0 && (
        <Table aria-label={`Fields changed from version ${from} to version ${to}`} data-testid="field-changes">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Field</Table.Th>
              <Table.Th>Version {from}</Table.Th>
              <Table.Th>Version {to}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {fields.map((c) => (
              <Table.Tr key={c.path}>
                <Table.Td>
                  <Code>{c.path}</Code>
                </Table.Td>
                <Table.Td ff="monospace">{valueText(c.before, 'before' in c)}</Table.Td>
                <Table.Td ff="monospace">{valueText(c.after, 'after' in c)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

/** The PDL of two versions side by side; a removed line marked `−`, an added one `+` (and tinted). */
function PdlDiff({ rows, from, to }: { rows: DiffRow[]; from: number; to: number }) {
  return (
    <Table
      aria-label={`PDL of version ${from} and version ${to}`}
      data-testid="pdl-diff"
      withColumnBorders
      verticalSpacing={2}
      style={{ tableLayout: 'fixed' }}
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={48}>Line</Table.Th>
          <Table.Th>PDL of version {from}</Table.Th>
          <Table.Th w={48}>Line</Table.Th>
          <Table.Th>PDL of version {to}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r, i) => (
          <Table.Tr key={i} data-testid="pdl-diff-row">
            <DiffCells side={r.left} mark={r.kind === 'changed' ? 'removed' : undefined} />
            <DiffCells side={r.right} mark={r.kind === 'changed' ? 'added' : undefined} />
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

const marks = {
  removed: { sign: '−', bg: 'var(--mantine-color-red-light)' },
  added: { sign: '+', bg: 'var(--mantine-color-green-light)' },
} as const;

function DiffCells({ side, mark }: { side: DiffSide | undefined; mark: 'removed' | 'added' | undefined }) {
  if (!side) return <Table.Td colSpan={2} />;
  const m = mark && marks[mark];
  return (
    <>
      <Table.Td c="dimmed" ff="monospace">
        {side.line}
      </Table.Td>
      <Table.Td ff="monospace" bg={m?.bg} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {m && (
          <>
            <span aria-hidden="true">{m.sign} </span>
            <VisuallyHidden>{mark}: </VisuallyHidden>
          </>
        )}
        {side.text}
      </Table.Td>
    </>
  );
}

/** Asks before a rollback, with an optional change note; the API's refusal shown in the dialog. */
function RollbackDialog({
  what,
  version,
  onClose,
  onConfirm,
}: {
  what: string;
  version: number | undefined;
  onClose: () => void;
  onConfirm: (note: string | undefined) => Promise<void>;
}) {
  const [note, setNote] = useState('');
  const { error, attempt, clear } = useActionError();
  const close = () => {
    clear();
    setNote('');
    onClose();
  };
  return (
    <Modal opened={version !== undefined} onClose={close} title={`Roll back to version ${version ?? ''}`}>
      <Stack>
        <ErrorAlert error={error} />
        <Text size="sm">
          {what} is stored again as it was in version {version}, as a new version; it is in force at once.
        </Text>
        <TextInput
          label="Change note (optional)"
          description="Kept with the new version"
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
        />
        <Group>
          <Button
            onClick={() =>
              void attempt(
                () => onConfirm(note.trim() || undefined),
                () => setNote(''),
              )
            }
          >
            Roll back
          </Button>
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
