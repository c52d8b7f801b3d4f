import { Group, NumberInput, TextInput } from '@mantine/core';

/** The id, name and description inputs an editor of a numbered record (task, pipeline, topology) starts with. */
export function RecordFields<T extends { id: number; name: string; description?: string }>({
  record,
  onChange,
  isNew,
  readOnly,
  errors,
}: {
  record: T;
  onChange: (record: T) => void;
  isNew: boolean;
  readOnly: boolean;
  errors: Record<string, string>;
}) {
  return (
    <>
      <Group grow align="start">
        <NumberInput
          label="Id"
          required
          min={0}
          readOnly={readOnly || !isNew}
          value={record.id}
          error={errors.id}
          onChange={(v) => onChange({ ...record, id: Number(v) })}
        />
        <TextInput
          label="Name"
          required
          readOnly={readOnly}
          value={record.name}
          error={errors.name}
          onChange={(e) => onChange({ ...record, name: e.currentTarget.value })}
        />
      </Group>
      <TextInput
        label="Description"
        readOnly={readOnly}
        value={record.description ?? ''}
        onChange={(e) => onChange({ ...record, description: e.currentTarget.value })}
      />
    </>
  );
}
