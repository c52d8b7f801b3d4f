import '@mantine/dropzone/styles.css';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  CloseButton,
  Code,
  FileButton,
  Group,
  List,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { Dropzone, type FileWithPath } from '@mantine/dropzone';
import { notifications } from '@mantine/notifications';
import type { SigmaImportResult } from '@weir/contract';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../lib/api.ts';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { errorText } from '../lib/errors.ts';
import { useRouter } from '../lib/router.tsx';
import { useSession } from '../lib/session.tsx';
import { usePoll } from '../lib/usePoll.ts';
import { fieldHints, type FieldHint } from './sigma-fields.ts';
import { bundle, isSigmaFileName, sourceLabel, type SigmaBundle, type SigmaFile } from './sigma-files.ts';
import { topicSample } from './topic-sample.ts';

/** Where a rule opens (the rule editor). */
const rulePath = (id: string): string => `/rules/${encodeURIComponent(id)}`;

/** A file's name as the user knows it: its path in a dropped or chosen folder, else its name. */
function displayName(file: File & Partial<FileWithPath>): string {
  const path = file.webkitRelativePath || file.relativePath || file.path || file.name;
  return path.replace(/^\.?\//, '');
}

type Answer = { result: SigmaImportResult; dryRun: boolean };

/**
 * `/sigma-import` (docs/ui.md, "Sigma import"): Sigma files and folders dropped or chosen, a
 * mapping, a dry run with each document's status and reason, then the import; a check of the
 * converted rules' fields against a topic's recent events.
 */
export default function SigmaImportPage() {
  const { isAdmin } = useSession();
  const { navigate } = useRouter();
  const [files, setFiles] = useState<SigmaFile[]>([]);
  const [skipped, setSkipped] = useState<string[]>([]);
  const [mapping, setMapping] = useState<MappingChoice>();
  const [license, setLicense] = useState('');
  const [answer, setAnswer] = useState<Answer>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const folderInput = useRef<HTMLInputElement>(null);
  const filesInput = useRef<HTMLInputElement>(null);
  const bundled = useMemo(() => bundle(files), [files]);

  const add = async (chosen: readonly (File & Partial<FileWithPath>)[]) => {
    const yaml = chosen.filter((f) => isSigmaFileName(f.name));
    const read = await Promise.all(yaml.map(async (f) => ({ name: displayName(f), text: await f.text() })));
    setFiles((old) => [...old.filter((o) => !read.some((r) => r.name === o.name)), ...read]);
    setSkipped((old) => [...old, ...chosen.filter((f) => !isSigmaFileName(f.name)).map(displayName)]);
    setAnswer(undefined);
  };
  const chooseMapping = useCallback((m: MappingChoice) => {
    setMapping(m);
    setAnswer(undefined);
  }, []);
  const clear = () => {
    setFiles([]);
    setSkipped([]);
    setAnswer(undefined);
    setError(undefined);
  };

  const run = async (dryRun: boolean) => {
    if (!mapping) return;
    setBusy(true);
    setError(undefined);
    try {
      const result = await api.sigmaImport({
        yaml: bundled.yaml,
        ...('file' in mapping ? { mappingYaml: mapping.yaml } : { mapping: mapping.builtIn }),
        dryRun,
        ...(license.trim() ? { license: license.trim() } : {}),
      });
      setAnswer({ result, dryRun });
      if (!dryRun) notifications.show({ color: 'green', message: `${result.stored} rules stored` });
    } catch (err) {
      setError(errorText(err));
      setAnswer(undefined);
    } finally {
      setBusy(false);
    }
  };

  const converted = useMemo(
    () =>
      (answer?.result.results ?? []).flatMap((r) => {
        const rule = (r as { rule?: { id: string; name: string; pdl: string } }).rule;
        return r.status === 'converted' && rule ? [rule] : [];
      }),
    [answer],
  );
  const toStore = (answer?.result.results ?? []).filter(
    (r) => r.status === 'converted' && (r as { usedBy?: unknown }).usedBy === undefined,
  ).length;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Sigma import</Title>
        <Button variant="default" onClick={() => navigate('/rules')}>
          Back to rules
        </Button>
      </Group>
      {!isAdmin && (
        <Alert color="gray" role="status">
          Importing rules needs the admin role; you can view the mappings.
        </Alert>
      )}
      <Card withBorder>
        <Stack gap="sm">
          <Title order={2} size="h4">
            1. Sigma files
          </Title>
          <Dropzone
            onDrop={(f) => void add(f)}
            activateOnClick={false}
            aria-label="Drop Sigma files or folders here"
            data-testid="sigma-dropzone"
            disabled={!isAdmin}
          >
            <Stack align="center" gap={4} py="md" style={{ pointerEvents: 'none' }}>
              <Text fw={500}>Drop Sigma rule files or whole folders here</Text>
              <Text size="sm">
                Every .yml and .yaml file is read (folders with their subfolders); rules, correlations and filters of
                all files are converted together.
              </Text>
            </Stack>
          </Dropzone>
          <Group>
            <Button variant="default" disabled={!isAdmin} onClick={() => filesInput.current?.click()}>
              Choose files
            </Button>
            <Button variant="default" disabled={!isAdmin} onClick={() => folderInput.current?.click()}>
              Choose a folder
            </Button>
            {files.length + skipped.length > 0 && (
              <Button variant="subtle" onClick={clear}>
                Clear files
              </Button>
            )}
            <input
              ref={filesInput}
              type="file"
              multiple
              accept=".yml,.yaml"
              hidden
              aria-label="Sigma files"
              onChange={(e) => {
                void add([...(e.currentTarget.files ?? [])]);
                e.currentTarget.value = '';
              }}
            />
            <input
              ref={folderInput}
              type="file"
              hidden
              aria-label="Sigma folder"
              {...{ webkitdirectory: '' }}
              onChange={(e) => {
                void add([...(e.currentTarget.files ?? [])]);
                e.currentTarget.value = '';
              }}
            />
          </Group>
          {files.length > 0 && (
            <Stack gap={2} data-testid="sigma-files">
              <Text size="sm">
                {files.length} {files.length === 1 ? 'file' : 'files'}, {bundled.sources.length} YAML{' '}
                {bundled.sources.length === 1 ? 'document' : 'documents'}
              </Text>
              <List size="sm" aria-label="Chosen Sigma files" style={{ maxHeight: 200, overflow: 'auto' }}>
                {files.map((f) => (
                  <List.Item key={f.name}>
                    <Group gap={4} wrap="nowrap">
                      {f.name}
                      <CloseButton
                        size="xs"
                        aria-label={`Remove ${f.name}`}
                        onClick={() => {
                          setFiles((old) => old.filter((o) => o.name !== f.name));
                          setAnswer(undefined);
                        }}
                      />
                    </Group>
                  </List.Item>
                ))}
              </List>
            </Stack>
          )}
          {(skipped.length > 0 || bundled.empty.length > 0) && (
            <Alert color="yellow" role="status" data-testid="sigma-skipped">
              {skipped.length > 0 && <Text size="sm">Not read (not .yml or .yaml): {skipped.join(', ')}</Text>}
              {bundled.empty.length > 0 && <Text size="sm">No YAML document in: {bundled.empty.join(', ')}</Text>}
            </Alert>
          )}
        </Stack>
      </Card>
      <Card withBorder>
        <Stack gap="sm">
          <Title order={2} size="h4">
            2. Mapping
          </Title>
          <SigmaMappingPicker value={mapping} onChange={chooseMapping} />
          <TextInput
            label="License"
            description="Recorded in each rule (SigmaHQ's rules are DRL-1.1 and do not say so themselves)"
            placeholder="DRL-1.1"
            value={license}
            onChange={(e) => {
              setLicense(e.currentTarget.value);
              setAnswer(undefined);
            }}
            w={320}
          />
        </Stack>
      </Card>
      <Card withBorder>
        <Stack gap="sm">
          <Title order={2} size="h4">
            3. Preview and import
          </Title>
          <Group>
            <Button
              variant="default"
              disabled={!isAdmin || !mapping || bundled.sources.length === 0}
              loading={busy && !answer}
              onClick={() => void run(true)}
            >
              Preview (dry run)
            </Button>
            <Button
              disabled={!isAdmin || answer === undefined || !answer.dryRun || toStore === 0}
              loading={busy && answer !== undefined}
              onClick={() => void run(false)}
            >
              {answer?.dryRun ? `Import ${toStore} ${toStore === 1 ? 'rule' : 'rules'}` : 'Import'}
            </Button>
          </Group>
          <ErrorAlert error={error} title="The import was refused" />
          {answer && (
            <Stack gap="xs">
              <Text size="sm" role="status" data-testid="sigma-summary">
                {answer.dryRun ? 'Dry run with' : 'Imported with'} mapping {answer.result.mapping}:{' '}
                {answer.result.converted} converted, {answer.result.failed} failed
                {answer.dryRun
                  ? `; ${toStore} ${toStore === 1 ? 'rule' : 'rules'} to store, nothing stored yet.`
                  : `; ${answer.result.stored} ${answer.result.stored === 1 ? 'rule' : 'rules'} stored.`}
              </Text>
              <SigmaPreview answer={answer.result} files={bundled} />
            </Stack>
          )}
        </Stack>
      </Card>
      <Card withBorder>
        <Stack gap="sm">
          <Title order={2} size="h4">
            4. Do the fields occur in your events?
          </Title>
          <SigmaFieldCheck rules={converted} />
        </Stack>
      </Card>
    </Stack>
  );
}

/** The mapping an import uses: a built-in one by name, or a file the user uploaded. */
type MappingChoice = { readonly builtIn: string } | { readonly file: string; readonly yaml: string };

const uploaded = '(uploaded file)';

/**
 * Choose the mapping (docs/sigma.md, "Mapping files"): the built-in ones from
 * GET /api/import/sigma/mappings, or upload a mapping file; "View mapping" shows the file.
 */
function SigmaMappingPicker({
  value,
  onChange,
}: {
  value: MappingChoice | undefined;
  onChange: (choice: MappingChoice) => void;
}) {
  const mappings = usePoll(() => api.sigmaMappings(), 0);
  const [viewing, setViewing] = useState(false);
  // the file shown, with the choice it belongs to: shown only while that choice is the current one,
  // so a pick never shows the file of the mapping chosen before it while its own is fetched
  const [shown, setShown] = useState<{ of: MappingChoice; title: string; yaml: string }>();
  const [error, setError] = useState<string>();
  // The default mapping is chosen until the user picks another.
  useEffect(() => {
    const first = mappings.data?.find((m) => m.default) ?? mappings.data?.[0];
    if (value === undefined && first) onChange({ builtIn: first.name });
  }, [mappings.data, value, onChange]);
  useEffect(() => {
    if (!viewing || value === undefined) return setShown(undefined);
    if ('file' in value) return setShown({ of: value, title: value.file, yaml: value.yaml });
    let live = true;
    api.sigmaMapping(value.builtIn).then(
      (m) => live && setShown({ of: value, title: `${m.name}: ${m.description}`, yaml: m.yaml }),
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [viewing, value]);
  const upload = async (file: File | null) => {
    if (!file) return;
    setError(undefined);
    onChange({ file: file.name, yaml: await file.text() });
  };
  const options = [
    ...(mappings.data ?? []).map((m) => ({ value: m.name, label: `${m.name}${m.default ? ' (default)' : ''}` })),
    ...(value && 'file' in value ? [{ value: uploaded, label: `${value.file} (uploaded)` }] : []),
  ];
  const selected = value === undefined ? null : 'file' in value ? uploaded : value.builtIn;
  const description =
    value && 'builtIn' in value ? mappings.data?.find((m) => m.name === value.builtIn)?.description : undefined;
  return (
    <Stack gap="xs">
      <Group align="end">
        <Select
          label="Mapping"
          description="How Sigma's field names and log sources become your events' paths"
          data={options}
          value={selected}
          allowDeselect={false}
          onChange={(v) => v && v !== uploaded && onChange({ builtIn: v })}
          w={320}
        />
        <FileButton onChange={(f) => void upload(f)} accept=".yml,.yaml,application/yaml,text/yaml">
          {(props) => (
            <Button variant="default" {...props}>
              Upload a mapping
            </Button>
          )}
        </FileButton>
        <Button variant="subtle" onClick={() => setViewing((v) => !v)} aria-expanded={viewing}>
          {viewing ? 'Hide mapping' : 'View mapping'}
        </Button>
      </Group>
      {description && (
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      )}
      <ErrorAlert error={mappings.error ?? error} />
      {viewing && shown !== undefined && shown.of === value && (
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {shown.title}
          </Text>
          <Code block tabIndex={0} aria-label="Mapping file" style={{ maxHeight: 360, overflow: 'auto' }}>
            {shown.yaml}
          </Code>
        </Stack>
      )}
    </Stack>
  );
}

type Result = SigmaImportResult['results'][number] & {
  rule?: { id: string; name: string };
  appliedTo?: string[];
  usedBy?: string[];
};

const statusColor = { converted: 'green', error: 'red', filter: 'blue' } as const;

/** What happens to a document: why it fails, whom a filter applies to, warnings. */
function reason(r: Result): string {
  if (r.status === 'error') return r.path ? `${r.path}: ${r.reason ?? ''}` : (r.reason ?? '');
  const notes: string[] = [];
  if (r.status === 'filter') notes.push(`applied to ${(r.appliedTo ?? []).join(', ') || 'no rule'}`);
  if (r.status === 'converted' && r.usedBy) notes.push(`not stored on its own: used by ${r.usedBy.join(', ')}`);
  notes.push(...(r.warnings ?? []));
  return notes.join('; ');
}

/**
 * The import's answer per document (docs/ui.md, "Sigma import"): the file it came from, its
 * status, the rule it becomes (a link once stored) and the reason or warnings.
 */
function SigmaPreview({ answer, files }: { answer: SigmaImportResult; files: SigmaBundle }) {
  const { navigate } = useRouter();
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table aria-label="Sigma documents" striped verticalSpacing={4} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>File</Table.Th>
            <Table.Th>Title</Table.Th>
            <Table.Th miw={130}>Status</Table.Th>
            <Table.Th>Rule</Table.Th>
            <Table.Th>Reason</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(answer.results as Result[]).map((r) => (
            <Table.Tr key={r.document}>
              <Table.Td>{sourceLabel(files, r.document)}</Table.Td>
              <Table.Td>{r.title ?? ''}</Table.Td>
              <Table.Td>
                <Badge variant="dot" color={statusColor[r.status]}>
                  {r.status === 'converted' ? (r.stored ? 'stored' : 'converted') : r.status}
                </Badge>
              </Table.Td>
              <Table.Td>
                {r.rule && r.stored ? (
                  <Anchor
                    href={rulePath(r.rule.id)}
                    onClick={(e) => {
                      e.preventDefault();
                      navigate(rulePath(r.rule!.id));
                    }}
                  >
                    {r.rule.id}
                  </Anchor>
                ) : (
                  (r.rule?.id ?? '')
                )}
                {r.rule && r.rule.name !== r.title && (
                  <Text size="xs" c="dimmed">
                    named {r.rule.name}
                  </Text>
                )}
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{reason(r)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The last `count` records of every partition of a topic (its most recent events), read through a consume session. */
async function recentValues(topic: string, count: number): Promise<unknown[]> {
  const { partitions } = await api.topicPartitions(topic);
  const values: unknown[] = [];
  for (const p of partitions) {
    if (p.highOffset <= p.lowOffset) continue;
    const startOffset = Math.max(p.lowOffset, p.highOffset - count);
    await api.consume(topic, { partition: p.partition, startOffset, maxEvents: count, maxTimeoutSeconds: 3 });
    for (;;) {
      const read = await api.consumeRead(topic, 0);
      if (read.status !== 'RUNNING') {
        values.push(...read.messages.map((m) => m.value));
        break;
      }
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  return values;
}

/** ` (1 message that is not a JSON object skipped)`, or nothing. */
const skippedNote = (n: number): string =>
  n === 0
    ? ''
    : n === 1
      ? ' (1 message that is not a JSON object skipped)'
      : ` (${n} messages that are not JSON objects skipped)`;

interface Checked {
  topic: string;
  events: number;
  skipped: number;
  hints: FieldHint[];
}

/**
 * The hint for events that do not fit the mapping (docs/ui.md, "Sigma import"): the converted
 * rules' fields checked against a topic's recent events, naming each rule's fields that never occur.
 */
function SigmaFieldCheck({ rules }: { rules: readonly { id: string; name: string; pdl: string }[] }) {
  const topics = usePoll(() => api.topics(), 0);
  const [topic, setTopic] = useState<string | null>(null);
  const [count, setCount] = useState<number | string>(100);
  const [checked, setChecked] = useState<Checked>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  // A new preview (other files, another mapping) makes the last check stale.
  useEffect(() => setChecked(undefined), [rules]);
  const check = async () => {
    if (!topic) return;
    setBusy(true);
    setError(undefined);
    try {
      const sample = topicSample(await recentValues(topic, Number(count)));
      const events = sample.lines.map((l) => JSON.parse(l) as unknown);
      setChecked({ topic, events: events.length, skipped: sample.skipped, hints: fieldHints(rules, events) });
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const names = new Map(rules.map((r) => [r.id, r.name]));
  return (
    <Stack gap="xs">
      <Text size="sm">
        Check the converted rules against a topic: the fields a rule reads that none of the topic's recent events has
        are listed (a rule whose fields never occur never matches).
        {rules.length === 0 ? ' Preview an import first: the check uses the rules it converts.' : ''}
      </Text>
      <Group align="end">
        <Select
          label="Topic to check against"
          searchable
          data={topics.data ?? []}
          value={topic}
          onChange={(t) => {
            setTopic(t);
            setChecked(undefined);
          }}
          w={280}
        />
        <NumberInput label="Recent events per partition" min={1} max={1000} value={count} onChange={setCount} w={220} />
        <Button variant="default" disabled={!topic || rules.length === 0} loading={busy} onClick={() => void check()}>
          Check fields
        </Button>
      </Group>
      <ErrorAlert error={topics.error ?? error} />
      {checked && (
        <div data-testid="field-check" aria-live="polite">
          {checked.events === 0 ? (
            <Alert color="yellow" role="status">
              {checked.topic} has no recent JSON events to check against
              {skippedNote(checked.skipped)}.
            </Alert>
          ) : checked.hints.length === 0 ? (
            <Alert color="green" role="status">
              Every field of the {rules.length} rules occurs in the {checked.events} recent events of {checked.topic}.
            </Alert>
          ) : (
            <Alert color="yellow" role="status">
              <Text size="sm" fw={700}>
                Fields that never occur in {checked.topic}
              </Text>
              <Text size="sm" mb="xs">
                {checked.hints.length} of {rules.length} rules read fields that none of the {checked.events} recent
                events of {checked.topic} has
                {skippedNote(checked.skipped)}: they cannot match those events. If your events hold these fields under
                other names, choose or upload the mapping that puts them there.
              </Text>
              <List size="sm" spacing={4}>
                {checked.hints.map((h) => (
                  <List.Item key={h.rule}>
                    <Text span size="sm" fw={500}>
                      {names.get(h.rule) ?? h.rule}
                    </Text>{' '}
                    (
                    {h.missing.length === h.fields
                      ? `none of its ${h.fields} fields occurs`
                      : `${h.missing.length} of ${h.fields} fields never occur`}
                    ):{' '}
                    {h.missing.map((f, i) => (
                      <span key={f}>
                        {i > 0 ? ', ' : ''}
                        <Code>{f}</Code>
                      </span>
                    ))}
                    {h.similar.length > 0 && (
                      <Text size="sm" c="dimmed">
                        The events have{' '}
                        {h.similar.map((s, i) => (
                          <span key={s.field}>
                            {i > 0 ? ', ' : ''}
                            <Code>{s.present}</Code>
                          </span>
                        ))}{' '}
                        instead
                        {h.similar.every((s) => !s.present.includes('.')) ? (
                          <>
                            : flat events with Sigma's field names fit the <Code>sigma</Code> mapping.
                          </>
                        ) : (
                          ': a mapping (fields, fieldTemplate) that puts the fields there fits these events.'
                        )}
                      </Text>
                    )}
                  </List.Item>
                ))}
              </List>
            </Alert>
          )}
        </div>
      )}
    </Stack>
  );
}
