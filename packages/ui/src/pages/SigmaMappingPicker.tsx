import { Button, Code, FileButton, Group, Select, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api } from '../lib/api.ts';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { errorText } from '../lib/errors.ts';
import { usePoll } from '../lib/usePoll.ts';

/** The mapping an import uses: a built-in one by name, or a file the user uploaded. */
export type MappingChoice = { readonly builtIn: string } | { readonly file: string; readonly yaml: string };

const uploaded = '(uploaded file)';

/**
 * Choose the mapping (docs/sigma.md, "Mapping files"): the built-in ones from
 * GET /api/import/sigma/mappings, or upload a mapping file; "View mapping" shows the file.
 */
export function SigmaMappingPicker({
  value,
  onChange,
}: {
  value: MappingChoice | undefined;
  onChange: (choice: MappingChoice) => void;
}) {
  const mappings = usePoll(() => api.sigmaMappings(), 0);
  const [viewing, setViewing] = useState(false);
  const [shown, setShown] = useState<{ title: string; yaml: string }>();
  const [error, setError] = useState<string>();
  // The default mapping is chosen until the user picks another.
  useEffect(() => {
    const first = mappings.data?.find((m) => m.default) ?? mappings.data?.[0];
    if (value === undefined && first) onChange({ builtIn: first.name });
  }, [mappings.data, value, onChange]);
  useEffect(() => {
    if (!viewing || value === undefined) return setShown(undefined);
    if ('file' in value) return setShown({ title: value.file, yaml: value.yaml });
    let live = true;
    api.sigmaMapping(value.builtIn).then(
      (m) => live && setShown({ title: `${m.name}: ${m.description}`, yaml: m.yaml }),
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
      {viewing && shown && (
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
