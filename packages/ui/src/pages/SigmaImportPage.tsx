import '@mantine/dropzone/styles.css';
import { Alert, Button, Card, CloseButton, Group, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { Dropzone, type FileWithPath } from '@mantine/dropzone';
import { notifications } from '@mantine/notifications';
import type { SigmaImportResult } from '@weir/contract';
import { useCallback, useMemo, useRef, useState } from 'react';
import { api } from '../lib/api.ts';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { errorText } from '../lib/errors.ts';
import { useRouter } from '../lib/router.tsx';
import { useSession } from '../lib/session.tsx';
import { SigmaFieldCheck } from './SigmaFieldCheck.tsx';
import { SigmaMappingPicker, type MappingChoice } from './SigmaMappingPicker.tsx';
import { SigmaPreview } from './SigmaPreview.tsx';
import { bundle, isSigmaFileName, type SigmaFile } from './sigma-files.ts';

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
